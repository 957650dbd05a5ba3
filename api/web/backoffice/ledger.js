import { api, query } from './api.js';
import { ACT, attempt, mayUse } from './actions.js';
import { confirmAction } from './confirm.js';
import { badge, h, money, row, say, show, table, when } from './dom.js';
import { day, t } from './i18n.js';

const DECIDE = ['backoffice:decide'];

const kindLabel = (kind) => ({
  missing_in_ledger: t('A PSP line the ledger lacks'),
  missing_at_psp: t('A ledger line the PSP lacks'),
  amount_differs: t('The amounts differ'),
  closing_balance_differs: t('The closing balances differ'),
})[kind] ?? kind;
const statusLabel = (status) => ({ clean: t('clean'), mismatched: t('mismatched'), accepted: t('accepted') })[status] ?? status;

/** Yesterday in São Paulo (UTC−3 all year), what a run is for by default. */
const yesterday = () => new Date(Date.now() - 3 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);

function trialBalance(data, originators, originatorId, params) {
  const select = h('select', { id: 'l-originator', name: 'originator_id' },
    h('option', { value: '' }, t('Every originator')),
    originators.map((o) => h('option', { value: o.id, selected: o.id === originatorId }, o.name)));
  const form = h('form', { class: 'filters', 'aria-label': t('Whose books') },
    h('p', { class: 'field' }, h('label', { for: 'l-originator' }, t('Originator')), select),
    h('p', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, t('Show'))));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = `#/ledger${query({ originator_id: select.value, run: params.get('run') })}`;
  });
  return [
    h('h2', {}, t('Trial balance')),
    form,
    table(t('Trial balance at {time}', { time: when(data.as_of) }), [t('Account kind'), t('Debits'), t('Credits')], [
      ...data.lines.map((line) => row(h('code', {}, line.kind), money(line.debits), money(line.credits))),
      row(h('strong', {}, t('Total')), h('strong', {}, money(data.debits)), h('strong', {}, money(data.credits))),
    ]),
  ];
}

function reconcileForm(originatorId) {
  if (!mayUse(ACT)) return null;
  const input = h('input', { id: 'l-date', name: 'business_date', type: 'date', value: yesterday(), required: true });
  const form = h('form', { class: 'filters', 'aria-label': t('Reconcile a business date') },
    h('p', { class: 'field' }, h('label', { for: 'l-date' }, t('Business date')), input),
    h('p', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, t('Reconcile now'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await attempt(async () => {
      const outcome = await api.post('/v1/backoffice/ledger/reconcile', { business_date: input.value });
      const told = outcome.mismatch_count === 0
        ? t('{date} reconciled: nothing found.', { date: day(outcome.business_date) })
        : t('{date} reconciled: {count} mismatch(es) found.', { date: day(outcome.business_date), count: outcome.mismatch_count });
      // Said once the page moved to the run (a move clears what was said before it).
      window.addEventListener('hashchange', () => say(told, outcome.mismatch_count === 0 ? 'ok' : 'error'), { once: true });
      const shown = outcome.reconciliations.find((run) => run.status === 'mismatched') ?? outcome.reconciliations[0];
      location.hash = `#/ledger${query({ originator_id: originatorId, run: shown.id })}`;
    });
  });
  return form;
}

function runs(page, originatorId) {
  return table(t('Reconciliation runs'), [t('Business date'), 'PSP', t('Status'), t('Mismatches'), t('PSP closing balance'), t('Ledger closing balance'), t('Date closed'), t('Run by'), t('When')],
    page.items.map((run) => row(
      h('a', { href: `#/ledger${query({ originator_id: originatorId, run: run.id })}` }, day(run.business_date)), run.psp, badge(run.status, statusLabel(run.status)), run.mismatch_count,
      money(run.psp_closing_balance), money(run.ledger_closing_balance), run.date_closed ? t('yes') : t('no'), run.requested_by, when(run.created_at))));
}

async function accept(run) {
  const values = await confirmAction({
    title: t('Accept the mismatches of {date} ({psp})?', { date: day(run.business_date), psp: run.psp }),
    text: t('They stay recorded; the date closes once every PSP\'s latest run of it is clean or accepted.'),
    confirmLabel: t('Accept'), fields: [{ name: 'reason', label: t('Reason (required)'), type: 'textarea', required: true, maxlength: 1000 }],
  });
  if (!values) return;
  await attempt(async () => {
    await api.post(`/v1/backoffice/ledger/reconciliations/${run.id}/accept`, { reason: values.reason });
    say(t('Accepted.'), 'ok');
  });
}

function mismatches(detail, rerender) {
  const { reconciliation: run } = detail;
  return [
    h('h2', {}, t('Mismatches of {date} ({psp})', { date: day(run.business_date), psp: run.psp })),
    run.status === 'mismatched' && mayUse(DECIDE)
      ? h('p', { class: 'buttons' }, h('button', { type: 'button', onclick: async () => { await accept(run); await rerender(); } }, t('Accept')))
      : null,
    run.accepted_reason ? h('p', {}, t('Accepted by {who}: {reason}', { who: run.accepted_by, reason: run.accepted_reason })) : null,
    table(t('{count} mismatch(es)', { count: detail.mismatches.length }), [t('Kind'), t('Reference'), t('Originator'), t('Ledger amount'), t('PSP amount'), t('When')],
      detail.mismatches.map((m) => row(kindLabel(m.kind), h('code', {}, m.reference ?? '—'), m.originator_id ?? '—', money(m.ledger_amount), money(m.psp_amount), when(m.occurred_at)))),
  ];
}

/** The books for staff: every originator's trial balance, the reconciliation runs against the PSPs, and a run's mismatches. */
export async function ledgerView(params) {
  const originatorId = params.get('originator_id') ?? '';
  const runId = params.get('run') ?? '';
  const render = () => attempt(async () => {
    const [originators, balance, page, detail] = await Promise.all([
      api.get('/v1/backoffice/originators'),
      api.get(`/v1/backoffice/ledger/trial-balance${query({ originator_id: originatorId })}`),
      api.get('/v1/backoffice/ledger/reconciliations?limit=30'),
      runId ? api.get(`/v1/backoffice/ledger/reconciliations/${runId}`) : null,
    ]);
    show(
      h('h1', {}, t('Ledger')),
      h('p', { class: 'lead' }, t('Debits equal credits in every book. Each day the PSP accounts are reconciled against their statements; a date closes when nothing is found or an approver accepts what was.')),
      ...trialBalance(balance, originators.items, originatorId, params),
      h('h2', {}, t('Reconciliation')),
      reconcileForm(originatorId),
      runs(page, originatorId),
      ...(detail ? mismatches(detail, render) : []),
    );
  });
  await render();
}
