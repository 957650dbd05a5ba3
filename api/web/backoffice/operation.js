import { api } from './api.js';
import { ACT, actionLabel, actionsFor, approvalProgress, attempt, mayUse, runAction } from './actions.js';
import { auditTable, canReadAudit } from './audit.js';
import { confirmAction } from './confirm.js';
import { badge, definitionList, h, money, row, say, show, table, when } from './dom.js';
import { day, pct, t } from './i18n.js';
import { disputesSection, nfeChecksSection } from './nfe-checks.js';
import { registrationsSection } from './registrations.js';
import { renderSVG } from '/backoffice/vendor/uqr.mjs';

/** States the workflow leaves on its own within seconds: the page follows them. */
const MOVING = new Set(['APPROVED_DIRECT', 'PRE_APPROVED', 'SIGNED', 'DISBURSING']);
const PAYABLE_TITLE = new Set(['WAITING_PAYMENT', 'PARTIALLY_PAID']);
/** The e-sign provider's words for its document and signers, in the console's language (unknown ones as the provider wrote them). */
const providerStatusName = (status) => ({
  running: t('in progress'), closed: t('fully signed'), canceled: t('voided'), pending: t('waiting to sign'), signed: t('signed'),
})[status] ?? status;

let refresh = null;

async function recordPayment(title, reload) {
  const values = await confirmAction({
    title: t('Record a payer payment on {title}?', { title: title.external_id }),
    text: t('{payer} owes {amount} on this title.', { payer: title.payer_name, amount: money(title.outstanding_balance) }),
    confirmLabel: t('Record payment'),
    fields: [
      { name: 'paid_amount_brl', label: t('Amount paid (BRL, dot for cents: 1234.56)'), required: true, value: title.outstanding_balance, inputmode: 'decimal', pattern: '\\d+(\\.\\d{1,2})?' },
      { name: 'external_id', label: t('Payment reference (bank id)'), required: true, maxlength: 80, hint: t('Unique per title: recording the same reference twice records one payment.') },
    ],
  });
  if (!values) return;
  await attempt(async () => {
    const paid = await api.post(`/v1/backoffice/titles/${title.id}/payer-payments`, values);
    const params = { title: title.external_id, status: paid.title_status, remaining: money(paid.remaining) };
    say(paid.idempotent_replay
      ? t('Payment recorded (already recorded before): title {title} is now {status}, {remaining} remaining.', params)
      : t('Payment recorded: title {title} is now {status}, {remaining} remaining.', params), 'ok');
  });
  await reload();
}

function titlesTable(page, reload) {
  const opPaid = page.operation.lifecycle_status === 'PAID';
  return table(t('Receivables and their titles'), [t('Title'), t('Payer'), t('Due'), t('Days'), t('Rate / month'), t('Requested'), t('Discount'), t('Liquid'), t('Status'), t('Outstanding'), t('Paid'), ''],
    page.operation.titles.map((title) => row(
      title.external_id, `${title.payer_name} (${title.payer_document})`, day(title.due_date), title.qty_days_advanced, pct(title.monthly_rate_pct),
      h('span', { class: 'num' }, money(title.requested_net_future_value)), h('span', { class: 'num' }, money(title.present_value_discount)),
      h('span', { class: 'num' }, money(title.net_present_liquid_value)), badge(title.status),
      h('span', { class: 'num' }, money(title.outstanding_balance)), h('span', { class: 'num' }, money(title.paid_amount)),
      opPaid && PAYABLE_TITLE.has(title.status) && mayUse(ACT)
        ? h('button', { type: 'button', onclick: () => recordPayment(title, reload), 'aria-label': t('Record payment on {title}', { title: title.external_id }) }, t('Record payment'))
        : '')));
}

/** Sandbox: the operation lives on a test clock; advancing it applies every deadline up to the new time. */
async function advanceClock(clock, reload) {
  const values = await confirmAction({
    title: t('Advance the test clock?'),
    text: t('The clock stands at {time}. Every operation on it applies what falls due up to the new time, in time order.', { time: when(clock.frozen_time) }),
    confirmLabel: t('Advance clock'),
    fields: [{
      name: 'frozen_time', label: t('New clock time (ISO 8601)'), required: true, value: new Date(Date.parse(clock.frozen_time) + 30 * 86_400_000).toISOString(),
      hint: t('Later than the clock\'s time, by at most 730 days.'),
    }],
  });
  if (!values) return;
  await attempt(async () => {
    const advanced = await api.post(`/v1/backoffice/test-clocks/${clock.id}/advance`, values);
    say(t('The test clock is advancing to {time}.', { time: when(advanced.frozen_time) }), 'ok');
  });
  await reload();
}

function clockSection(clock, reload) {
  if (!clock) return null;
  return h('section', { 'aria-labelledby': 'test-clock' }, h('h2', { id: 'test-clock' }, t('Test clock (sandbox)')),
    definitionList([
      [t('Clock time'), h('time', { datetime: clock.frozen_time }, when(clock.frozen_time))],
      [t('Clock status'), badge(clock.status)],
      [t('Clock'), clock.name ?? clock.id],
    ]),
    clock.status === 'ready' && mayUse(ACT) ? h('button', { type: 'button', onclick: () => advanceClock(clock, reload) }, t('Advance clock')) : null);
}

/**
 * Each title's PIX charge: the BR Code to give the payer, as text to copy and as a QR code
 * a banking app scans. The QR is an image (data: URI), so its SVG needs nothing the page's CSP forbids.
 */
function pixChargesTable(titles) {
  const charged = titles.filter((title) => title.pix_charge);
  return table(t('PIX charges'), [t('Title'), t('Status'), t('Payable until'), t('BR Code (Pix copia e cola)'), t('QR code')],
    charged.map((title) => row(title.external_id, badge(title.pix_charge.status), when(title.pix_charge.expires_at),
      h('code', { class: 'br-code' }, title.pix_charge.br_code),
      h('img', {
        class: 'qr', alt: t('QR code of the PIX charge of {title}', { title: title.external_id }),
        src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(title.pix_charge.br_code))}`,
      }))));
}

function sections(page, reload) {
  const op = page.operation;
  const signers = page.contract_signers;
  return [
    clockSection(page.test_clock, reload),
    h('section', { 'aria-labelledby': 'parties' }, h('h2', { id: 'parties' }, t('Parties')),
      definitionList([
        [t('Originator'), page.originator.name],
        [t('Assignor'), `${page.assignor.name}${page.assignor.trade_name ? ` (${page.assignor.trade_name})` : ''}`],
        [t('Assignor document'), page.assignor.document],
        [t('Assignor e-mail'), page.assignor.email],
        [t('Paid by'), op.disbursement_method === 'bank_account' ? t('bank account') : t('PIX on the assignor\'s document')],
      ])),
    h('section', { 'aria-labelledby': 'totals' }, h('h2', { id: 'totals' }, t('Totals, fees and CET')),
      definitionList([
        [t('Gross future value'), money(op.opr_gross_future_value)],
        [t('Net future value'), money(op.opr_net_future_value)],
        [t('Requested'), money(op.opr_requested_net_future_value)],
        [t('Present value discount'), money(op.opr_present_value_discount)],
        [t('Liquid before debts'), money(op.opr_net_liquid_value)],
        [t('Other debt discounts'), money(op.other_debt_discounts)],
        [t('To disburse (PIX)'), money(op.opr_net_present_liquid_value)],
        [t('Average days in advance'), op.average_days_in_advance],
        [t('Floating days'), op.floating_days],
        [t('Fee hierarchy'), op.fee_hierarchy],
        [t('CET monthly / annual'), `${pct(op.cet_monthly_pct)} / ${pct(op.cet_annual_pct)}`],
      ])),
    h('section', { 'aria-labelledby': 'titles' }, h('h2', { id: 'titles' }, t('Receivables')), titlesTable(page, reload)),
    nfeChecksSection(op.titles),
    registrationsSection(op.titles),
    disputesSection(op.titles),
    op.titles.some((title) => title.pix_charge)
      ? h('section', { 'aria-labelledby': 'charges' }, h('h2', { id: 'charges' }, t('PIX charges to payers')), pixChargesTable(op.titles))
      : null,
    h('section', { 'aria-labelledby': 'contract' }, h('h2', { id: 'contract' }, t('Contract')),
      table(t('Dispatch attempts'), [t('Attempt'), t('Status'), t('Type'), t('Embedded'), t('Error'), t('Signed at'), t('Sent at')],
        page.contracts.map((c) => row(c.attempt, badge(c.status), c.type, c.embedded ? t('yes') : t('no'), c.error_code ?? '—', when(c.signed_at), when(c.created_at)))),
      signers.signers_error ? h('p', { class: 'notice' }, t('The e-sign provider did not answer; signer status unknown for now.')) : null,
      signers.signers ? table(signers.document_status ? t('Signers (document {status})', { status: providerStatusName(signers.document_status) }) : t('Signers'), [t('Name'), t('Provider status'), t('Signed')],
        signers.signers.map((s) => row(s.name, providerStatusName(s.status), s.signed ? t('yes') : t('no')))) : null),
    h('section', { 'aria-labelledby': 'pix' }, h('h2', { id: 'pix' }, t('PIX attempts')),
      table(t('Disbursement attempts'), [t('Attempt'), t('Amount'), t('Status'), t('Settled amount'), t('Rejection'), t('Ordered'), t('Settled')],
        page.disbursements.map((d) => row(d.attempt, money(d.amount), badge(d.status), money(d.settled_amount), d.rejection_reason ?? '—', when(d.created_at), when(d.settled_at))))),
    h('section', { 'aria-labelledby': 'payments' }, h('h2', { id: 'payments' }, t('Payer payments')),
      table(t('Payer payments'), [t('Title'), t('Reference'), t('Amount'), t('Remaining after'), t('Channel'), t('Paid at')],
        page.payer_payments.map((p) => row(p.title_external_id, p.external_id, money(p.amount), money(p.remaining_after), p.channel, when(p.paid_at))))),
    h('section', { 'aria-labelledby': 'timeline' }, h('h2', { id: 'timeline' }, t('Timeline')),
      h('ol', { class: 'timeline' }, page.timeline.map((e) => h('li', {}, h('time', { datetime: e.occurred_at }, when(e.occurred_at)), ' ', h('strong', {}, e.event_type),
        e.data.reason ? ` — ${e.data.reason}` : '', e.actor_email ? ` — ${t('by {person}', { person: e.actor_email })}` : '', deliveriesOf(e))))),
    auditSection(page),
  ];
}

/** Four-eyes progress ("1 of 2") and who approved, when the operation needs two. */
function approvalsLine(page) {
  if (page.approvals_required < 2) return null;
  const who = page.approvals.map((a) => t('{person} at {time}', { person: a.email, time: when(a.approved_at) })).join('; ');
  return h('p', { id: 'approvals' }, h('strong', {}, t('Approvals: {progress}', { progress: approvalProgress(page) })), who ? ` — ${who}` : '');
}

/**
 * The audit rows of the operation and of its titles (payer payments), newest first; the audit
 * trail is for admins and approvers, so others see why it is not shown.
 */
function auditSection(page) {
  const section = h('section', { 'aria-labelledby': 'audit' }, h('h2', { id: 'audit' }, t('Audit trail')));
  if (!canReadAudit()) {
    section.append(h('p', { class: 'muted' }, t('The audit trail is shown to admins and approvers.')));
    return section;
  }
  const targets = [page.operation.id, ...page.operation.titles.map((title) => title.id)];
  Promise.all(targets.map((id) => api.get(`/v1/backoffice/audit-events?target_id=${id}&limit=200`)))
    .then((pages) => {
      const rows = pages.flatMap((p) => p.items).sort((a, b) => b.occurred_at.localeCompare(a.occurred_at));
      section.append(auditTable(t('Audit entries of this operation'), rows));
    })
    .catch(() => section.append(h('p', { class: 'notice' }, t('The audit trail could not be read.'))));
  return section;
}

function deliveryWords(d) {
  const params = { url: d.url, attempt: d.attempt_number, answer: d.response_status_code ?? d.error ?? t('no answer') };
  return d.delivered_successfully ? t('delivered to {url} (attempt {attempt}, {answer})', params) : t('failed to {url} (attempt {attempt}, {answer})', params);
}

/** Each POST of a timeline event to the originator's endpoints: delivered, or why not. */
function deliveriesOf(event) {
  if (!event.deliveries?.length) return null;
  return h('ul', { class: 'deliveries', 'aria-label': t('Deliveries of {event}', { event: event.event_type }) }, event.deliveries.map((d) => h('li', {},
    deliveryWords(d), ` ${when(d.created_at)}`)));
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
      h('p', { class: 'crumbs' }, h('a', { href: '#/queue' }, `← ${t('Approval queue')}`)),
      h('h1', {}, `${t('Operation')} ${op.display_number} `, badge(op.lifecycle_status)),
      h('p', { class: 'lead' }, t('Created {created} · last moved {moved}', { created: when(op.created_at), moved: when(op.updated_at) }),
        page.deny_reason ? ` · ${t('denied: {reason}', { reason: page.deny_reason })}` : '', page.cancel_reason ? ` · ${t('cancelled: {reason}', { reason: page.cancel_reason })}` : '',
        page.temporal_web_url ? [' · ', h('a', { href: page.temporal_web_url, target: '_blank', rel: 'noopener' }, t('Workflow in Temporal Web'))] : ''),
      approvalsLine(page),
      actions.length ? h('div', { class: 'actions', role: 'group', 'aria-label': t('Decisions') }, actions) : null,
      ...sections(page, reload),
    );
    // Follow the workflow while it moves on its own, as long as this page is the one shown.
    const stillHere = () => location.hash === `#/operations/${id}`;
    const moving = MOVING.has(op.lifecycle_status) || page.test_clock?.status === 'advancing';
    if (moving && stillHere()) refresh = setTimeout(() => { if (stillHere()) reload(); }, 1500);
  });
}
