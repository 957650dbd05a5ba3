import { clientScopes, DOCUMENT_MAX_LENGTH, errors, staffActSecurity, idempotencyKey, json, jsonBody, listOf, pagination, pathId, ref, timestampInput } from '../openapi/helpers';
import { externalIdField } from '../payables/openapi';

const paymentSchema = {
  type: 'object',
  required: ['paid_amount_brl', 'external_id'],
  properties: {
    paid_amount_brl: { ...ref('PositiveMoneyInput'), description: 'Above zero, at most the title\'s outstanding balance' },
    external_id: { ...externalIdField, description: 'The payment\'s own id (bank reference): unique per title' },
    paid_at: timestampInput({ type: ['string', 'null'], format: 'date-time', description: 'When the payer paid; default: when it is applied' }),
  },
};
const body = jsonBody(paymentSchema);
/** Staff's: nothing beyond the payment's fields, which the audit row keeps as its `request`. */
const staffBody = jsonBody({ ...paymentSchema, additionalProperties: false });

const rules = 'Applied by the title\'s workflow: WAITING_PAYMENT → PARTIALLY_PAID → PAID (event title.paid once). Deduplicated by (title, external_id): '
  + 'a retry returns the original record with idempotent_replay true; another body is 409 external_id_reused_with_different_body. 409: title_balance_locked '
  + '(OVERDUE: the balance moved to an assignor payable, by recourse or a repurchase), title_already_paid, title_cancelled, title_not_payable_yet (operation not PAID yet). '
  + '422 payment_exceeds_outstanding_balance. 503 title_payment_unavailable: nothing applied, retry with the same external_id. '
  + '503 workflow_unavailable: the workflow did not answer in time; a retry with the same external_id applies the payment at most once. '
  + '503 database_lock_timeout: another request held a row this one needs (the same external_id in flight) for longer than it could wait; retry.';

const responses = { 201: json('The payment (the original one on a replay)', ref('PayerPayment')), ...errors(401, 403, 404, 409, 422, 429, 503) };

export const titlePaymentSchemas = {
  PayerPayment: {
    type: 'object',
    required: ['id', 'title_id', 'operation_id', 'external_id', 'paid_amount_brl', 'paid_at', 'title_status', 'remaining', 'idempotent_replay'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      title_id: { type: 'string', format: 'uuid' },
      operation_id: { type: 'string', format: 'uuid' },
      external_id: { type: 'string' },
      paid_amount_brl: ref('Money'),
      paid_at: { type: 'string', format: 'date-time' },
      title_status: { type: 'string', description: 'The title right after this payment: PARTIALLY_PAID or PAID' },
      remaining: { ...ref('Money'), description: 'The title\'s outstanding balance right after this payment' },
      late_income_brl: { ...ref('Money'), description: 'A PIX collected after the due date: its fine and interest, the originator\'s late-payment income (not in paid_amount_brl); 0.00 otherwise' },
      refunded_brl: { ...ref('Money'), description: 'A PIX collected above the balance: the excess returned to the payer by the PSP (devolucao); 0.00 otherwise' },
      idempotent_replay: { type: 'boolean' },
    },
  },
};

/** The titles' reads; their `Title` schema is the operation's (an operation embeds its titles). */
export const titlePaths = {
  '/v1/titles': {
    get: {
      operationId: 'listTitles', tags: ['titles'], summary: 'Titles with their outstanding balance, newest first',
      description: 'Titles of the caller\'s originator\'s operations with what remains to be paid, filtered by status, operation, payer and due date; paginated with `limit` and `offset`.',
      security: clientScopes('operation:read'),
      parameters: [
        ...pagination,
        { name: 'status', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 40 } },
        { name: 'operation_id', in: 'query', required: false, schema: { type: 'string', format: 'uuid' } },
        { name: 'payer_document', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: DOCUMENT_MAX_LENGTH } },
        { name: 'due_date_from', in: 'query', required: false, schema: ref('Date') },
        { name: 'due_date_to', in: 'query', required: false, schema: ref('Date') },
      ],
      responses: { 200: json('Page of titles', listOf(ref('Title'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/titles/{id}': {
    get: {
      operationId: 'getTitle', tags: ['titles'], summary: 'One title with its outstanding balance',
      description: '404 when the id is unknown or belongs to another originator.',
      security: clientScopes('operation:read'),
      parameters: [pathId('id')],
      responses: { 200: json('The title', ref('Title')), ...errors(401, 403, 404, 422, 429) },
    },
  },
};

export const titlePaymentPaths = {
  '/v1/backoffice/titles/{id}/payer-payments': {
    post: {
      operationId: 'recordPayerPayment', tags: ['titles'], summary: 'Backoffice: record a payer\'s payment of a title (any originator)',
      description: rules,
      security: staffActSecurity(),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: staffBody,
      responses,
    },
  },
  '/v1/sandbox/titles/{id}/payer-payments': {
    post: {
      operationId: 'simulatePayerPayment', tags: ['titles'], summary: 'Sandbox: simulate the payer paying a title',
      description: `Outside production only (404 not_found there). ${rules}`,
      security: clientScopes('operation:create'),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: body,
      responses,
    },
  },
};
