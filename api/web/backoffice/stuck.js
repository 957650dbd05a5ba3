import { api } from './api.js';
import { actionLabel, actionsFor, attempt, runAction } from './actions.js';
import { badge, duration, h, money, row, show, table, when } from './dom.js';
import { t } from './i18n.js';
import { stuckNfeCheck } from './nfe-checks.js';
import { stuckRegistrationWait } from './registrations.js';

/** Operations waiting longer than their state allows, longest waiting first, with what unsticks each. */
export async function stuckView() {
  const reload = () => stuckView();
  await attempt(async () => {
    const page = await api.get('/v1/backoffice/stuck-operations?limit=200');
    const rows = page.items.map((op) => row(
      h('a', { href: `#/operations/${op.id}` }, op.display_number), badge(op.lifecycle_status), op.originator_name, op.assignor_name,
      money(op.opr_net_present_liquid_value), when(op.in_state_since), duration(op.waiting_seconds),
      h('div', { class: 'action-cell' }, h('p', {}, op.action), stuckNfeCheck(op.nfe_check), stuckRegistrationWait(op.registration_wait),
        actionsFor(op.lifecycle_status).map((name) => h('button', { type: 'button', class: 'primary', onclick: () => runAction(name, op, reload), 'aria-label': `${actionLabel(name)} ${op.display_number}` }, actionLabel(name)))),
      op.temporal_web_url ? h('a', { href: op.temporal_web_url, target: '_blank', rel: 'noopener' }, 'Temporal Web') : '—'));
    show(
      h('h1', {}, t('Stuck operations')),
      h('p', { class: 'lead' }, t('Shown at once: DISBURSEMENT_FAILED, CONTRACT_ERROR, SIGNED held by its NF-e check, PAID with a title in dispute. After 10 minutes: DISBURSING, SIGNED waiting for anything else (the escriturador). After 2 days: CONTRACT_SENT.')),
      table(t('{total} operation(s) waiting too long', { total: page.total }), [t('Operation'), t('State'), t('Originator'), t('Assignor'), t('To disburse'), t('In state since'), t('Waiting'), t('What unsticks it'), t('Workflow')], rows),
    );
  });
}
