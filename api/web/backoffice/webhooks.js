import { api, query } from './api.js';
import { attempt } from './actions.js';
import { badge, h, row, show, table, when } from './dom.js';
import { t } from './i18n.js';

/** One originator's webhook endpoints and how their deliveries go: what support checks when an integrator says "we got nothing". */
export async function webhooksView(params) {
  const originatorId = params.get('originator_id') ?? '';
  await attempt(async () => {
    const originators = await api.get('/v1/backoffice/originators');
    const page = originatorId ? await api.get(`/v1/backoffice/webhooks${query({ originator_id: originatorId, limit: 200 })}`) : null;
    const select = h('select', { id: 'w-originator', name: 'originator_id' },
      h('option', { value: '' }, t('Choose an originator')),
      originators.items.map((o) => h('option', { value: o.id, selected: o.id === originatorId }, o.name)));
    const form = h('form', { class: 'filters', 'aria-label': t('Pick whose endpoints to show') },
      h('p', { class: 'field' }, h('label', { for: 'w-originator' }, t('Originator')), select),
      h('p', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, t('Show'))));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      location.hash = `#/webhooks${query({ originator_id: select.value })}`;
    });
    const rows = (page?.items ?? []).map((w) => row(
      w.url, w.events.join(', '), badge(w.status), w.disabled_reason ? `${w.disabled_reason} (${when(w.disabled_at)})` : '—',
      when(w.last_success_at), when(w.last_failure_at), w.failing_since ? t('{streak} since {since}', { streak: w.failure_streak, since: when(w.failing_since) }) : '0', `${w.max_per_second}/s`));
    show(
      h('h1', {}, t('Webhooks')),
      h('p', { class: 'lead' }, t('An originator\'s endpoints: disabled after 5 days of only failed deliveries, until the integrator enables them.')),
      form,
      page ? table(t('{total} endpoint(s)', { total: page.total }), ['URL', t('Events'), t('Status'), t('Disabled'), t('Last success'), t('Last failure'), t('Failure streak'), t('Throttle')], rows) : null,
    );
  });
}
