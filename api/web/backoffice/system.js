import { api } from './api.js';
import { attempt } from './actions.js';
import { badge, duration, h, row, show, table } from './dom.js';
import { clock, t, when } from './i18n.js';

const REFRESH_MS = 5000;
let timer = null;

function figures(data) {
  const failing = data.routes.filter((r) => r.server_errors > 0).length;
  return [
    h('p', { class: 'lead' },
      data.database_up ? t('Postgres answers.') : t('Postgres does not answer: the figures read from it are missing.'),
      ' ', t('Requests counted by this api process since {since}.', { since: when(data.process_started_at) })),
    h('dl', { class: 'figures' },
      h('dt', {}, t('Outbox backlog')), h('dd', { id: 'outbox-pending' }, data.outbox_pending ?? '—'),
      h('dt', {}, t('Webhook deliveries failing')), h('dd', { id: 'deliveries-retrying' }, data.webhook_deliveries_retrying ?? '—'),
      h('dt', {}, t('Routes answering 5xx')), h('dd', {}, failing)),
    table(t('Operations per state'), [t('State'), t('Operations'), t('Oldest in state')],
      data.operations.filter((s) => s.count > 0).map((s) => row(badge(s.lifecycle_status), s.count, duration(s.oldest_seconds)))),
    table(t('Requests per route'), [t('Method'), t('Route'), t('Requests'), '4xx', '5xx', t('Mean ms')],
      data.routes.map((r) => row(r.method, r.route, r.requests, r.client_errors, r.server_errors, r.mean_ms))),
    h('p', { class: 'muted' }, t('Updated {time}; refreshed every {seconds} s.', { time: clock(new Date()), seconds: REFRESH_MS / 1000 })),
  ];
}

/** The api's own metrics for staff, refreshed in place while the page is open (no focus move on refresh). */
export async function systemView() {
  clearInterval(timer);
  const region = h('div', { id: 'system-figures', 'aria-live': 'polite' });
  await attempt(async () => {
    const data = await api.get('/v1/backoffice/system');
    show(h('h1', {}, t('System')), region);
    region.replaceChildren(...figures(data));
  });
  timer = setInterval(async () => {
    if (!location.hash.startsWith('#/system') || !region.isConnected) {
      clearInterval(timer);
      return;
    }
    await attempt(async () => region.replaceChildren(...figures(await api.get('/v1/backoffice/system'))));
  }, REFRESH_MS);
}
