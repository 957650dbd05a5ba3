import { clientSecurity, clientScopes, errors, idempotencyKey, json, jsonBody, listOf, oneOfNames, pagination, pathId, ref } from '../openapi/helpers';
import { checkedByHandler } from '../openapi/handler-checked';

const money = (description: string) => ({ ...ref('Money'), description });
const uuid = { type: 'string', format: 'uuid' };
const nullableUuid = { type: ['string', 'null'], format: 'uuid' };
const timestamp = { type: 'string', format: 'date-time' };
const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' };
/** The contract's grain for external_id: 1 to 80 characters, compared byte for byte. */
export const externalIdField = { type: 'string', minLength: 1, maxLength: 80 };
export const payableReadSecurity = clientSecurity(['payable:read'], ['payable:write']);

const payable = {
  type: 'object',
  required: ['id', 'assignor_id', 'origin', 'origin_title_id', 'reason', 'amount_brl', 'paid_amount_brl', 'remaining', 'written_off_amount_brl',
    'status', 'due_date', 'write_off_reason', 'settled_at', 'created_at', 'updated_at'],
  properties: {
    id: uuid,
    assignor_id: uuid,
    origin: { type: 'string', description: 'TITLE_OVERDUE (opened by an overdue title: its repurchase) or MANUAL; tolerate new values' },
    origin_title_id: nullableUuid,
    reason: { type: ['string', 'null'] },
    amount_brl: money('What was owed when opened'),
    paid_amount_brl: money('Paid, credited or netted so far'),
    remaining: money('What the assignor still owes (0 once paid or written off)'),
    written_off_amount_brl: money('What a write-off forgave'),
    status: { type: 'string', description: 'OPEN, PARTIALLY_PAID, PAID, WRITTEN_OFF; tolerate new values' },
    due_date: ref('Date'),
    write_off_reason: { type: ['string', 'null'] },
    settled_at: nullableTimestamp,
    created_at: timestamp,
    updated_at: timestamp,
  },
};

const payment = {
  type: 'object',
  required: ['id', 'payable_id', 'source', 'paid_amount_brl', 'remaining', 'external_id', 'operation_id', 'discount_credit_id', 'reversed_at', 'created_at'],
  properties: {
    id: uuid,
    payable_id: uuid,
    source: { type: 'string', description: 'ASSIGNOR_PIX_DIRECT, ASSIGNOR_BANK_TRANSFER, OPERATION_NETTING (operation_id names the operation), DISCOUNT_CREDIT (discount_credit_id); tolerate new values' },
    paid_amount_brl: money('Amount of this line'),
    remaining: money('The payable\'s balance right after this line'),
    external_id: { type: ['string', 'null'] },
    operation_id: nullableUuid,
    discount_credit_id: nullableUuid,
    reversed_at: { ...nullableTimestamp, description: 'A netting undone because its operation was cancelled or denied' },
    created_at: timestamp,
  },
};

export const payableSchemas = {
  AssignorPayable: payable,
  AssignorPayableWithPayments: { allOf: [ref('AssignorPayable'), { type: 'object', required: ['payments'], properties: { payments: { type: 'array', items: ref('PayablePayment') } } }] },
  PayablePayment: payment,
  PayablePaymentCreated: {
    allOf: [ref('PayablePayment'), { type: 'object', required: ['idempotent_replay'], properties: { idempotent_replay: { type: 'boolean', description: 'True when this is the original record of a retried external_id' } } }],
  },
};

const payableId = [pathId('id')];

export const payablePaths = {
  '/v1/assignor-payables': {
    post: {
      operationId: 'createAssignorPayable', tags: ['assignor-payables'], summary: 'Record a debt of an assignor by hand',
      description: 'Payables are also opened by the service when a title turns OVERDUE (origin TITLE_OVERDUE). A payable naming an `origin_title_id` its payer '
        + 'still owes (WAITING_PAYMENT or PARTIALLY_PAID, its operation PAID) repurchases that title: the title turns OVERDUE (event title.overdue naming the '
        + 'payable) and takes no payer payment from then on (409 title_balance_locked); `amount_brl` beyond its outstanding balance is a charge. Naming any '
        + 'other title records a charge. 422: validation_error (also `reason` missing without `origin_title_id`), assignor_not_found, origin_title_not_found, '
        + 'repurchase_below_open_balance (`amount_brl` less than the named open title\'s outstanding balance; with `outstanding_balance`).',
      security: clientScopes('payable:write'),
      parameters: [idempotencyKey(false)],
      requestBody: jsonBody(checkedByHandler({
        type: 'object',
        required: ['assignor_id', 'amount_brl', 'due_date'],
        properties: {
          assignor_id: uuid,
          origin_title_id: { ...nullableUuid, description: 'A title of the same assignor this debt comes from' },
          reason: { type: ['string', 'null'], minLength: 1, maxLength: 500, description: 'Required without origin_title_id' },
          amount_brl: { ...ref('PositiveMoneyInput'), description: 'Above zero' },
          due_date: ref('Date'),
        },
      }, oneOfNames('origin_title_id', 'reason'))),
      responses: { 201: json('The payable', ref('AssignorPayable')), ...errors(401, 403, 409, 422, 429) },
    },
    get: {
      operationId: 'listAssignorPayables', tags: ['assignor-payables'], summary: 'Payables of the originator, newest first',
      description: 'Only the caller\'s originator\'s payables, filtered by assignor, status, origin title and due date; paginated with `limit` and `offset`.',
      security: payableReadSecurity,
      parameters: [
        ...pagination,
        { name: 'assignor_id', in: 'query', required: false, schema: uuid },
        { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['OPEN', 'PARTIALLY_PAID', 'PAID', 'WRITTEN_OFF'] } },
        { name: 'origin_title_id', in: 'query', required: false, schema: uuid },
        { name: 'due_date_from', in: 'query', required: false, schema: ref('Date') },
        { name: 'due_date_to', in: 'query', required: false, schema: ref('Date') },
      ],
      responses: { 200: json('Page of payables', listOf(ref('AssignorPayable'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/assignor-payables/{id}': {
    get: {
      operationId: 'getAssignorPayable', tags: ['assignor-payables'], summary: 'One payable with every line of its ledger',
      description: '404 when the id is unknown or belongs to another originator.',
      security: payableReadSecurity,
      parameters: payableId,
      responses: { 200: json('The payable', ref('AssignorPayableWithPayments')), ...errors(401, 403, 404, 422, 429) },
    },
  },
  '/v1/assignor-payables/{id}/payments': {
    post: {
      operationId: 'payAssignorPayable', tags: ['assignor-payables'], summary: 'Record a payment of the assignor',
      description: 'Deduplicated by (payable, external_id): a retry returns the original record with idempotent_replay true and debits nothing; the same '
        + 'external_id with another body is 409 external_id_reused_with_different_body (detail.fields). Without external_id two equal POSTs make two payments. '
        + '409 payable_already_settled: the payable is paid in full or written off; after a write-off also for a retried external_id (an Idempotency-Key '
        + 'replay, within 24 hours, still answers first). 404 payable_not_found. 422 payment_exceeds_remaining (detail has remaining).',
      security: clientScopes('payable:write'),
      parameters: [...payableId, idempotencyKey(false)],
      requestBody: jsonBody({
        type: 'object',
        required: ['source', 'paid_amount_brl'],
        properties: {
          source: { type: 'string', enum: ['ASSIGNOR_PIX_DIRECT', 'ASSIGNOR_BANK_TRANSFER'] },
          paid_amount_brl: { ...ref('PositiveMoneyInput'), description: 'Above zero, at most the remaining balance' },
          external_id: { anyOf: [externalIdField, { type: 'null' }] },
        },
      }),
      responses: { 201: json('The payment (the original one on a replay)', ref('PayablePaymentCreated')), ...errors(401, 403, 404, 409, 422, 429) },
    },
  },
  '/v1/assignor-payables/{id}/write-off': {
    post: {
      operationId: 'writeOffAssignorPayable', tags: ['assignor-payables'], summary: 'Forgive what is left of a payable',
      description: 'The originator gives up the rest: the payable becomes WRITTEN_OFF, stops counting as debt for netting, and an overdue title behind it '
        + 'stops counting as exposure. 409 payable_already_settled when paid in full or already written off.',
      security: clientScopes('payable:write'),
      parameters: [...payableId, idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', required: ['reason'], properties: { reason: { type: 'string', minLength: 1, maxLength: 500 } } }),
      responses: { 200: json('The payable, written off', ref('AssignorPayable')), ...errors(401, 403, 404, 409, 422, 429) },
    },
  },
};
