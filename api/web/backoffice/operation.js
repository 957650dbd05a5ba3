import { api } from './api.js';
import { actionLabel, actionsFor, attempt, runAction } from './actions.js';
import { confirmAction } from './confirm.js';
import { badge, definitionList, h, money, row, say, show, table, when } from './dom.js';
import { renderSVG } from '/backoffice/vendor/uqr.mjs';

/** States the workflow leaves on its own within seconds: the page follows them. */
const MOVING = new Set(['APPROVED_DIRECT', 'PRE_APPROVED', 'SIGNED', 'DISBURSING']);
const PAYABLE_TITLE = new Set(['WAITING_PAYMENT', 'PARTIALLY_PAID']);
const pct = (value) => (value === null || value === undefined ? '—' : `${Number(value).toFixed(4).replace(/\.?0+$/, '')}%`);

let refresh = null;

async function recordPayment(title, reload) {
  const values = await confirmAction({
    title: `Record a payer payment on ${title.external_id}?`,
    text: `${title.payer_name} owes ${money(title.outstanding_balance)} on this title.`,
    confirmLabel: 'Record payment',
    fields: [
      { name: 'paid_amount_brl', label: 'Amount paid (BRL)', required: true, value: title.outstanding_balance, inputmode: 'decimal', pattern: '\\d+(\\.\\d{1,2})?' },
      { name: 'external_id', label: 'Payment reference (bank id)', required: true, maxlength: 80, hint: 'Unique per title: recording the same reference twice records one payment.' },
    ],
  });
  if (!values) return;
  await attempt(async () => {
    const paid = await api.post(`/v1/backoffice/titles/${title.id}/payer-payments`, values);
    say(`Payment recorded${paid.idempotent_replay ? ' (already recorded before)' : ''}: title ${title.external_id} is now ${paid.title_status}, ${money(paid.remaining)} remaining.`, 'ok');
  });
  await reload();
}

function titlesTable(page, reload) {
  const opPaid = page.operation.lifecycle_status === 'PAID';
  return table('Receivables and their titles', ['Title', 'Payer', 'Due', 'Days', 'Rate / month', 'Requested', 'Discount', 'Liquid', 'Status', 'Outstanding', 'Paid', ''],
    page.operation.titles.map((t) => row(
      t.external_id, `${t.payer_name} (${t.payer_document})`, t.due_date, t.qty_days_advanced, pct(t.monthly_rate_pct),
      h('span', { class: 'num' }, money(t.requested_net_future_value)), h('span', { class: 'num' }, money(t.present_value_discount)),
      h('span', { class: 'num' }, money(t.net_present_liquid_value)), badge(t.status),
      h('span', { class: 'num' }, money(t.outstanding_balance)), h('span', { class: 'num' }, money(t.paid_amount)),
      opPaid && PAYABLE_TITLE.has(t.status)
        ? h('button', { type: 'button', onclick: () => recordPayment(t, reload), 'aria-label': `Record payment on ${t.external_id}` }, 'Record payment')
        : '')));
}

/**
 * Each title's PIX charge (issue #31): the BR Code to give the payer, as text to copy and as a QR code
 * a banking app scans. The QR is an image (data: URI), so its SVG needs nothing the page's CSP forbids.
 */
function pixChargesTable(titles) {
  const charged = titles.filter((t) => t.pix_charge);
  return table('PIX charges', ['Title', 'Status', 'Payable until', 'BR Code (Pix copia e cola)', 'QR code'],
    charged.map((t) => row(t.external_id, badge(t.pix_charge.status), when(t.pix_charge.expires_at),
      h('code', { class: 'br-code' }, t.pix_charge.br_code),
      h('img', { class: 'qr', alt: `QR code of the PIX charge of ${t.external_id}`, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(t.pix_charge.br_code))}` }))));
}

function sections(page, reload) {
  const op = page.operation;
  const signers = page.contract_signers;
  return [
    h('section', { 'aria-labelledby': 'parties' }, h('h2', { id: 'parties' }, 'Parties'),
      definitionList([
        ['Originator', page.originator.name],
        ['Assignor', `${page.assignor.name}${page.assignor.trade_name ? ` (${page.assignor.trade_name})` : ''}`],
        ['Assignor document', page.assignor.document],
        ['Assignor e-mail', page.assignor.email],
        ['Paid by', op.disbursement_method === 'bank_account' ? 'bank account' : 'PIX on the assignor\'s document'],
      ])),
    h('section', { 'aria-labelledby': 'totals' }, h('h2', { id: 'totals' }, 'Totals, fees and CET'),
      definitionList([
        ['Gross future value', money(op.opr_gross_future_value)],
        ['Net future value', money(op.opr_net_future_value)],
        ['Requested', money(op.opr_requested_net_future_value)],
        ['Present value discount', money(op.opr_present_value_discount)],
        ['Liquid before debts', money(op.opr_net_liquid_value)],
        ['Other debt discounts', money(op.other_debt_discounts)],
        ['To disburse (PIX)', money(op.opr_net_present_liquid_value)],
        ['Average days in advance', op.average_days_in_advance],
        ['Floating days', op.floating_days],
        ['Fee hierarchy', op.fee_hierarchy],
        ['CET monthly / annual', `${pct(op.cet_monthly_pct)} / ${pct(op.cet_annual_pct)}`],
      ])),
    h('section', { 'aria-labelledby': 'titles' }, h('h2', { id: 'titles' }, 'Receivables'), titlesTable(page, reload)),
    op.titles.some((t) => t.pix_charge)
      ? h('section', { 'aria-labelledby': 'charges' }, h('h2', { id: 'charges' }, 'PIX charges to payers'), pixChargesTable(op.titles))
      : null,
    h('section', { 'aria-labelledby': 'contract' }, h('h2', { id: 'contract' }, 'Contract'),
      table('Dispatch attempts', ['Attempt', 'Status', 'Type', 'Embedded', 'Error', 'Signed at', 'Sent at'],
        page.contracts.map((c) => row(c.attempt, badge(c.status), c.type, c.embedded ? 'yes' : 'no', c.error_code ?? '—', when(c.signed_at), when(c.created_at)))),
      signers.signers_error ? h('p', { class: 'notice' }, 'The e-sign provider did not answer; signer status unknown for now.') : null,
      signers.signers ? table(`Signers${signers.document_status ? ` (document ${signers.document_status})` : ''}`, ['Name', 'Provider status', 'Signed'],
        signers.signers.map((s) => row(s.name, s.status, s.signed ? 'yes' : 'no'))) : null),
    h('section', { 'aria-labelledby': 'pix' }, h('h2', { id: 'pix' }, 'PIX attempts'),
      table('Disbursement attempts', ['Attempt', 'Amount', 'Status', 'Settled amount', 'Rejection', 'Ordered', 'Settled'],
        page.disbursements.map((d) => row(d.attempt, money(d.amount), badge(d.status), money(d.settled_amount), d.rejection_reason ?? '—', when(d.created_at), when(d.settled_at))))),
    h('section', { 'aria-labelledby': 'payments' }, h('h2', { id: 'payments' }, 'Payer payments'),
      table('Payer payments', ['Title', 'Reference', 'Amount', 'Remaining after', 'Channel', 'Paid at'],
        page.payer_payments.map((p) => row(p.title_external_id, p.external_id, money(p.amount), money(p.remaining_after), p.channel, when(p.paid_at))))),
    h('section', { 'aria-labelledby': 'timeline' }, h('h2', { id: 'timeline' }, 'Timeline'),
      h('ol', { class: 'timeline' }, page.timeline.map((e) => h('li', {}, h('time', { datetime: e.occurred_at }, when(e.occurred_at)), ' ', h('strong', {}, e.event_type),
        e.data.reason ? ` — ${e.data.reason}` : '', e.data.approved_by ? ` — by ${e.data.approved_by}` : '', deliveriesOf(e))))),
  ];
}

/** Each POST of a timeline event to the originator's endpoints: delivered, or why not. */
function deliveriesOf(event) {
  if (!event.deliveries?.length) return null;
  return h('ul', { class: 'deliveries', 'aria-label': `Deliveries of ${event.event_type}` }, event.deliveries.map((d) => h('li', {},
    `${d.delivered_successfully ? 'delivered' : 'failed'} to ${d.url} (attempt ${d.attempt_number}, `,
    d.response_status_code ?? d.error ?? 'no answer', `) ${when(d.created_at)}`)));
}

/** One operation of any originator: everything staff need to decide, and the decisions its state allows. */
export async function operationView(id) {
  clearTimeout(refresh);
  const reload = () => operationView(id);
  await attempt(async () => {
    const page = await api.get(`/v1/backoffice/operations/${id}`);
    const op = page.operation;
    const actions = actionsFor(op.lifecycle_status).map((name) =>
      h('button', { type: 'button', class: name === 'deny' ? 'danger' : 'primary', onclick: () => runAction(name, op, reload) }, actionLabel(name)));
    show(
      h('p', { class: 'crumbs' }, h('a', { href: '#/queue' }, '← Approval queue')),
      h('h1', {}, `Operation ${op.display_number} `, badge(op.lifecycle_status)),
      h('p', { class: 'lead' }, `Created ${when(op.created_at)} · last moved ${when(op.updated_at)}`,
        page.deny_reason ? ` · denied: ${page.deny_reason}` : '', page.cancel_reason ? ` · cancelled: ${page.cancel_reason}` : '',
        page.temporal_web_url ? [' · ', h('a', { href: page.temporal_web_url, target: '_blank', rel: 'noopener' }, 'Workflow in Temporal Web')] : ''),
      actions.length ? h('div', { class: 'actions', role: 'group', 'aria-label': 'Decisions' }, actions) : null,
      ...sections(page, reload),
    );
    // Follow the workflow while it moves on its own, as long as this page is the one shown.
    const stillHere = () => location.hash === `#/operations/${id}`;
    if (MOVING.has(op.lifecycle_status) && stillHere()) refresh = setTimeout(() => { if (stillHere()) reload(); }, 1500);
  });
}
