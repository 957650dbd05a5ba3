import { REGISTRATION_MISMATCH_KINDS } from '../../domain/escriturador/reconciliation';
import type { EventType } from '../../domain/events';
import type { Schema } from '../openapi/helpers';
import { jsonBody, ref } from '../openapi/helpers';
import { eventOrderingProperties } from '../events/openapi';
import { RETRY_SCHEDULE } from './openapi';

/**
 * The `webhooks` section of the document (OpenAPI 3.1): what we POST to a subscriber for each
 * event kind. Every `data` carries the ids of its resource and `originator_id`; amounts are money
 * strings. Fields not marked required may be absent; new fields may appear (additive changes).
 */
const money = ref('Money');
const uuid = { type: 'string', format: 'uuid' };
const timestamp = { type: 'string', format: 'date-time' };
/** Not ref('Date'), which states a maxLength: this 1.6.0 payload keeps its released shape (see buildDocument). */
const releasedDate = { type: 'string', format: 'date' };
const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };

function data(required: string[], properties: Record<string, Schema>): Schema {
  return { type: 'object', required: ['originator_id', ...required], properties: { originator_id: uuid, ...properties }, additionalProperties: true };
}

const operation = { operation_id: uuid, display_number: { type: 'string', examples: ['OP-1A2B3C4D-5E6F7A8B'] } };
const operationIds = ['operation_id', 'display_number'];
const amounts = {
  opr_gross_future_value: money, requested_net_future_value: money, opr_present_value_discount: money, opr_net_present_liquid_value: money,
};
const decision = { reason: nullableText, actor: text };
const title = { title_id: uuid, ...operation, external_id: text };
/** As the title read's `registration` names them. */
const registration = {
  registrar: text, duplicata_id: text, act_id: nullableText, negotiation_type: text, registered_at: { type: ['string', 'null'], format: 'date-time' },
  refusal_reason: { anyOf: [{ type: 'string', enum: ['not_holder', 'already_transferred'] }, { type: 'null' }] },
};
const payableData = data(['payable_id', 'assignor_id', 'status', 'amount_brl', 'remaining'], {
  payable_id: uuid, assignor_id: uuid, origin: { type: 'string', enum: ['TITLE_OVERDUE', 'MANUAL'] }, origin_title_id: { type: ['string', 'null'], format: 'uuid' },
  amount_brl: money, paid_amount_brl: money, remaining: money, written_off_amount_brl: money,
  status: { type: 'string', enum: ['OPEN', 'PARTIALLY_PAID', 'PAID', 'WRITTEN_OFF'] }, due_date: ref('Date'),
});

const EVENTS: Record<EventType, { summary: string; data: Schema }> = {
  'operation.created': {
    summary: 'An operation was created (carries its lifecycle status)',
    data: data([...operationIds, 'lifecycle_status'], { ...operation, lifecycle_status: text, ...amounts }),
  },
  'operation.approved': {
    summary: 'An operation was approved, by backoffice or automatically at creation',
    data: data([...operationIds, 'lifecycle_status', 'approved_at'], { ...operation, lifecycle_status: text, approved_at: timestamp, approved_by: nullableText }),
  },
  'operation.approval_requested': {
    summary: 'An operation entered the human approval queue (never for an auto-approved one)',
    data: data(operationIds, { ...operation, requested_net_future_value: money }),
  },
  'operation.denied': { summary: 'Backoffice denied an operation', data: data(operationIds, { ...operation, ...decision }) },
  'operation.cancelled': {
    summary: 'An operation was cancelled before the money moved',
    data: data(operationIds, { ...operation, ...decision, cancellation_reason: { ...nullableText, maxLength: 64, pattern: '^[a-z_]+$', description: 'As the operation read\'s `cancellation_reason`: `requested`, or the check before the PIX that refused it (`nfe_cancelled`, `nfe_disowned_by_payer`, `receivable_encumbered`, ...); absent on events recorded before this field existed' } }),
  },
  'operation.contract_signed': { summary: 'All signers signed the contract', data: data(operationIds, operation) },
  'operation.paid': {
    summary: 'The PIX to the assignor settled and was reconciled',
    data: data(operationIds, { ...operation, opr_net_present_liquid_value: money, paid_amount: money, paid_at: timestamp, disbursement_method: nullableText }),
  },
  'title.paid': {
    summary: 'A title was paid in full',
    data: data(['title_id', ...operationIds], { ...title, paid_amount_brl: money, paid_at: timestamp }),
  },
  'operation.flagged': {
    summary: 'An operation was sent to human approval whatever its amount: an NF-e key of it is already assigned elsewhere (policy double_assignment: review)',
    data: data([...operationIds, 'lifecycle_status', 'reason', 'external_ids'], {
      ...operation, lifecycle_status: { const: 'WAITING_APPROVAL' }, reason: { type: 'string', examples: ['receivable_assigned_elsewhere'] },
      external_ids: { type: 'array', items: text, description: 'The receivables of this operation that carry such a key' },
    }),
  },
  'operation.settled': {
    summary: 'Every title of a paid operation closed (paid, or overdue and handed to the assignor as a payable)',
    data: data(operationIds, { ...operation, settled_at: timestamp }),
  },
  'operation.disbursement_failed': {
    summary: 'The PIX to the assignor was refused or could not be made; the money did not arrive (each failed attempt is one event)',
    data: data([...operationIds, 'reason'], {
      ...operation, reason: { type: ['string', 'null'], description: 'Our code (pix_unavailable, settlement_amount_mismatch...) or the PIX provider\'s refusal in its words' },
    }),
  },
  'operation.contract_error': {
    summary: 'The contract dispatch failed at the e-signature provider; the operation waits for send-for-signature (each failure is one event)',
    data: data([...operationIds, 'error_code'], { ...operation, error_code: { type: ['string', 'null'], examples: ['esign_create_failed'] } }),
  },
  'title.partially_paid': {
    summary: 'A payer paid part of a title (each payment is one event)',
    data: data(['title_id', ...operationIds, 'payment_id'], {
      ...title, payment_id: uuid, payment_amount_brl: money, paid_amount_brl: money, outstanding_balance: money, paid_at: timestamp,
    }),
  },
  'title.overdue': {
    summary: 'A title was not paid by its deadline: its balance is locked and the assignor owes it (payable_id)',
    data: data(['title_id', ...operationIds, 'payable_id'], { ...title, outstanding_balance: money, paid_amount_brl: money, due_date: ref('Date'), payable_id: uuid }),
  },
  'title.disputed': {
    summary: 'The daily re-check after payout found an open title\'s NF-e cancelled (nfe_cancelled) or disowned by its payer (nfe_disowned_by_payer); no money moved (one event per title)',
    data: data(['title_id', ...operationIds, 'nfe_key', 'reason', 'cstat', 'xmotivo', 'disputed_at'], {
      ...title, nfe_key: { type: 'string', pattern: '^[0-9]{44}$' }, reason: { type: 'string', examples: ['nfe_disowned_by_payer'] },
      cstat: text, xmotivo: text, payer_event: { ...nullableText, examples: ['not_performed'] }, disputed_at: timestamp,
    }),
  },
  'title.cancelled': {
    summary: 'A title was cancelled with its operation (cancelled or denied)',
    data: data(['title_id', ...operationIds], { ...title, outstanding_balance: money }),
  },
  'payable.opened': { summary: 'An assignor payable was opened (a title went overdue, or one was created by hand)', data: payableData },
  'payable.paid': { summary: 'An assignor payable was paid off (by the assignor, a netting or a discount credit)', data: payableData },
  'payable.written_off': { summary: 'What was left of an assignor payable was forgiven', data: payableData },
  'webhook_endpoint.disabled': {
    summary: 'Operational: a webhook endpoint was disabled after every delivery to it failed for 5 days; enable it to receive events again',
    data: data(['webhook_id', 'disabled_reason'], {
      webhook_id: uuid, url: text, disabled_reason: text, failing_since: timestamp, last_success_at: { type: ['string', 'null'], format: 'date-time' },
    }),
  },
  'test_clock.ready': {
    summary: 'Sandbox only: a test clock finished an advance; every operation on it has done all that falls due up to its frozen_time',
    data: data(['test_clock_id', 'frozen_time', 'status'], { test_clock_id: uuid, name: nullableText, frozen_time: timestamp, status: { const: 'ready' } }),
  },
  'pix_charge.expired': {
    summary: 'A title\'s PIX charge stopped being payable unpaid: the title turned OVERDUE and the charge was removed at the PSP',
    data: data(['title_id', ...operationIds, 'txid'], { ...title, txid: text, expired_at: timestamp, outstanding_balance: money }),
  },
  'audit.checkpoint': {
    summary: 'A signed head of the backoffice audit trail that covers staff actions on your operations or titles: keep it; `npm run audit:verify -- --checkpoints` checks the trail against the checkpoints kept',
    data: data(['checkpoint_id', 'seq', 'hash', 'from_seq', 'signed_at', 'kid', 'jws'], {
      checkpoint_id: uuid,
      seq: { type: 'integer', format: 'int64', description: 'The last row of the trail the checkpoint covers' },
      hash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'That row\'s hash: the head of the chain' },
      from_seq: { type: 'integer', format: 'int64', description: 'The first row not covered by the previous checkpoint' },
      signed_at: timestamp,
      kid: { type: 'string', description: 'The signing key, in GET /v1/.well-known/jwks.json' },
      jws: { type: 'string', description: 'Compact JWS (RS256, header kid and typ audit-checkpoint+jws) over {id, seq, hash, time, from_seq, root}; root is the RFC 6962 Merkle root over the covered rows\' seq:hash (absent from checkpoints made before it)' },
    }),
  },
  'ledger.reconciliation_mismatch': {
    summary: 'Reconciling a PSP account against its statement found a line of your books the PSP lacks, a PSP line your books lack, or an amount that differs (docs/ledger.md)',
    data: data(['mismatch_id', 'reconciliation_id', 'business_date', 'psp', 'kind'], {
      mismatch_id: uuid, reconciliation_id: uuid, business_date: releasedDate, psp: { type: 'string', enum: ['payout', 'collection'] },
      kind: { type: 'string', enum: ['missing_in_ledger', 'missing_at_psp', 'amount_differs'] },
      reference: { ...nullableText, description: 'The end-to-end id of a PIX received or refunded, or the idempotency key of a payout' },
      end_to_end_id: nullableText, direction: { type: ['string', 'null'], enum: ['in', 'out', null] },
      ledger_amount: { anyOf: [money, { type: 'null' }] }, psp_amount: { anyOf: [money, { type: 'null' }] },
      occurred_at: { type: ['string', 'null'], format: 'date-time' },
    }),
  },
  'title.registered': {
    summary: 'Our acquisition of the title\'s duplicata was recorded at its escriturador (before the operation\'s PIX, which waits for every title\'s)',
    data: data(['title_id', ...operationIds, 'registrar', 'duplicata_id', 'act_id', 'negotiation_type', 'registered_at'], { ...title, ...registration }),
  },
  'title.registration_refused': {
    summary: 'The escriturador refused our acquisition of the title\'s duplicata (the assignor no longer holds it): the operation is cancelled with receivable_encumbered and no money moves',
    data: data(['title_id', ...operationIds, 'registrar', 'duplicata_id', 'refusal_reason'], { ...title, ...registration }),
  },
  'registration.reconciliation_mismatch': {
    summary: 'The daily comparison of our acts with the escriturador\'s found one that differs (one event per title, kind and day): act_missing_there, act_cancelled_there '
      + '(cancelled behind our back), holder_changed_there (someone else holds it now), act_in_force_there (we cancelled it), settled_there (a settlement we missed) or not_settled_there. No money moves (docs/operations.md)',
    data: data(['title_id', ...operationIds, 'registrar', 'duplicata_id', 'act_id', 'registration_status', 'kind', 'checked_at'], {
      ...title, ...registration,
      registration_status: { type: 'string', enum: ['registered', 'cancelled', 'settled'], description: 'Our record of the act' },
      kind: { type: 'string', enum: [...REGISTRATION_MISMATCH_KINDS] }, checked_at: timestamp,
    }),
  },
  'stock.item_registered': {
    summary: 'A stock item was registered',
    data: data(['stock_item_id', 'external_id', 'assignor_id', 'net_future_value'], {
      stock_item_id: uuid, external_id: text, assignor_id: uuid, net_future_value: money, gross_future_value: money,
      gross_future_value_deductions: { anyOf: [money, { type: 'null' }] }, due_date: releasedDate, backing_type: text, pre_authorized: { type: 'boolean' },
    }),
  },
};

const deliveryHeaders: Schema[] = [
  { name: 'X-Service-Signature', description: 'Hex HMAC-SHA256 of the raw body bytes, keyed with `hmac_secret`. Verify before parsing, in constant time.', pattern: '^[0-9a-f]{64}$' },
  { name: 'webhook-id', description: 'Standard Webhooks message id: the `event_id`, the same in every attempt.' },
  { name: 'webhook-timestamp', description: 'Standard Webhooks: Unix seconds of this attempt; reject old ones to stop replays.', pattern: '^\\d+$' },
  { name: 'webhook-signature', description: 'Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`; after a rotation, a second, space-separated signature with the previous secret for 24 hours.' },
].map(({ name, description, pattern }) => ({ name, in: 'header', required: true, description, schema: { type: 'string', ...(pattern ? { pattern } : {}) } }));

function envelope(type: EventType, payload: Schema): Schema {
  return {
    type: 'object',
    required: ['event_type', 'event_id', 'occurred_at', 'data'],
    properties: {
      event_type: { const: type }, event_id: { ...uuid, description: 'Unique per event; deduplicate by it' }, occurred_at: timestamp,
      ...eventOrderingProperties, data: payload,
    },
  };
}

export const webhookEvents = Object.fromEntries(Object.entries(EVENTS).map(([type, { summary, data: payload }]) => [type, {
  post: {
    operationId: `event_${type.replace('.', '_')}`,
    tags: ['webhooks'],
    summary,
    description: `Delivered by HTTPS POST. Answer 2xx within 10 seconds; any other answer, a redirect or no answer is retried: ${RETRY_SCHEDULE}. `
      + 'The same event may arrive more than once, and two events may arrive out of order: keep the highest `sequence` seen per `object_id` and drop a lower one.',
    security: [{ webhookSignature: [] }, { serviceSignature: [] }],
    parameters: deliveryHeaders,
    requestBody: jsonBody(envelope(type as EventType, payload)),
    responses: { 200: { description: 'Any 2xx acknowledges the event; the body is ignored' } },
  },
}]));
