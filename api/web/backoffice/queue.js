import { api, query } from './api.js';
import { approvalProgress, attempt } from './actions.js';
import { h, money, row, show, table, when } from './dom.js';
import { saoPauloDayEdge, t } from './i18n.js';

const PAGE_SIZE = 20;

/** Every originator's WAITING_APPROVAL operations, oldest first; the filters live in the address. */
export async function queueView(params) {
  const filters = {
    originator_id: params.get('originator_id') ?? '',
    assignor_document: params.get('assignor_document') ?? '',
    created_from: params.get('created_from') ?? '',
    created_to: params.get('created_to') ?? '',
  };
  const offset = Number(params.get('offset') ?? 0);
  await attempt(async () => {
    const [originators, page] = await Promise.all([
      api.get('/v1/backoffice/originators'),
      api.get(`/v1/backoffice/approval-queue${query({
        originator_id: filters.originator_id, assignor_document: filters.assignor_document,
        created_from: saoPauloDayEdge(filters.created_from, false), created_to: saoPauloDayEdge(filters.created_to, true),
        limit: PAGE_SIZE, offset,
      })}`),
    ]);
    const go = (changes) => { location.hash = `#/queue${query({ ...filters, offset, ...changes })}`; };

    const select = h('select', { id: 'f-originator', name: 'originator_id' },
      h('option', { value: '' }, t('All originators')),
      originators.items.map((o) => h('option', { value: o.id, selected: o.id === filters.originator_id }, o.name)));
    const form = h('form', { class: 'filters', 'aria-label': t('Filter the queue') },
      h('p', { class: 'field' }, h('label', { for: 'f-originator' }, t('Originator')), select),
      h('p', { class: 'field' }, h('label', { for: 'f-document' }, t('Assignor document (CPF/CNPJ)')),
        h('input', { id: 'f-document', name: 'assignor_document', value: filters.assignor_document, inputmode: 'numeric' })),
      h('p', { class: 'field' }, h('label', { for: 'f-from' }, t('Created from')), h('input', { id: 'f-from', name: 'created_from', type: 'date', value: filters.created_from })),
      h('p', { class: 'field' }, h('label', { for: 'f-to' }, t('Created to')), h('input', { id: 'f-to', name: 'created_to', type: 'date', value: filters.created_to })),
      h('p', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, t('Filter')),
        h('button', { type: 'button', class: 'secondary', onclick: () => { location.hash = '#/queue'; } }, t('Clear'))));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      go({ ...Object.fromEntries(new FormData(form)), offset: 0 });
    });

    const rows = page.items.map((op) => row(
      h('a', { href: `#/operations/${op.id}` }, op.display_number),
      op.originator_name, op.assignor_name, op.assignor_document,
      h('span', { class: 'num' }, money(op.opr_requested_net_future_value)), h('span', { class: 'num' }, money(op.opr_net_present_liquid_value)),
      op.channel, when(op.created_at),
      h('span', { title: op.approvals.map((a) => a.email).join(', ') }, approvalProgress(op),
        op.approvals.length > 0 ? ` (${op.approvals.map((a) => a.email).join(', ')})` : '')));
    const first = page.total === 0 ? 0 : offset + 1;
    const last = Math.min(offset + PAGE_SIZE, page.total);
    const pager = h('nav', { class: 'pager', 'aria-label': t('Pages') },
      h('button', { type: 'button', disabled: offset === 0, onclick: () => go({ offset: Math.max(0, offset - PAGE_SIZE) }) }, t('Previous')),
      h('span', {}, t('{first}–{last} of {total}', { first, last, total: page.total })),
      h('button', { type: 'button', disabled: last >= page.total, onclick: () => go({ offset: offset + PAGE_SIZE }) }, t('Next')));
    show(
      h('h1', {}, t('Approval queue')),
      h('p', { class: 'lead' }, t('Operations of every originator waiting for a decision, oldest first.')),
      form,
      table(t('Operations waiting for approval'), [t('Operation'), t('Originator'), t('Assignor'), t('Document'), t('Requested'), t('To disburse'), t('Channel'), t('Created'), t('Approvals')], rows),
      pager,
    );
  });
}
