import { MISMATCH_KINDS } from '../../domain/ledger/reconciliation';
import { errors, json, jsonBody, listOf, pagination, pathId, ref, staffActSecurity, timestampInput, userSecurity } from '../openapi/helpers';

const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const nullableMoney = { anyOf: [ref('Money'), { type: 'null' }] };
const psp = { type: 'string', enum: ['payout', 'collection'] };
const status = { type: 'string', enum: ['clean', 'mismatched', 'accepted'] };
const tags = ['backoffice'];

export const ledgerBackofficeSchemas = {
  LedgerReconciliation: {
    type: 'object',
    description: 'One reconciliation of a PSP account for a business date: its statement against the `psp_cash` accounts of every originator\'s books.',
    required: ['id', 'business_date', 'psp', 'status', 'requested_by', 'ledger_closing_balance', 'psp_closing_balance', 'psp_lines', 'ledger_lines',
      'mismatch_count', 'created_at', 'accepted_by', 'accepted_reason', 'accepted_at', 'date_closed'],
    properties: {
      id: uuid,
      business_date: ref('Date'),
      psp,
      status: { ...status, description: '`clean`: nothing found; `mismatched`: see its mismatches; `accepted`: staff explained them' },
      requested_by: { type: 'string', description: '`schedule`, or the staff member (`user:<id>`)' },
      ledger_closing_balance: { ...ref('Money'), description: 'Σ every originator\'s `psp_cash` of this PSP at the end of the date' },
      psp_closing_balance: { ...ref('Money'), description: 'The PSP\'s balance at the end of the date' },
      psp_lines: { type: 'integer', minimum: 0 },
      ledger_lines: { type: 'integer', minimum: 0 },
      mismatch_count: { type: 'integer', minimum: 0 },
      created_at: dateTime,
      accepted_by: { type: ['string', 'null'] },
      accepted_reason: { type: ['string', 'null'] },
      accepted_at: { type: ['string', 'null'], format: 'date-time' },
      date_closed: { type: 'boolean', description: 'Whether the business date is closed (a later posting dated in it is booked in the open date)' },
    },
  },
  LedgerReconciliationMismatch: {
    type: 'object',
    required: ['id', 'reconciliation_id', 'originator_id', 'kind', 'reference', 'end_to_end_id', 'direction', 'ledger_amount', 'psp_amount', 'occurred_at'],
    properties: {
      id: uuid,
      reconciliation_id: uuid,
      originator_id: { type: ['string', 'null'], format: 'uuid', description: 'Whose books; null for a closing balance, or a PSP line nothing of ours knows' },
      kind: { type: 'string', enum: [...MISMATCH_KINDS] },
      reference: { type: ['string', 'null'], description: 'The end-to-end id of a PIX received (or of the PIX a refund returns), or a payout\'s idempotency key' },
      end_to_end_id: { type: ['string', 'null'] },
      direction: { type: ['string', 'null'], enum: ['in', 'out', null] },
      ledger_amount: nullableMoney,
      psp_amount: nullableMoney,
      occurred_at: { type: ['string', 'null'], format: 'date-time' },
    },
  },
  LedgerReconciliationDetail: {
    type: 'object',
    required: ['reconciliation', 'mismatches'],
    properties: { reconciliation: ref('LedgerReconciliation'), mismatches: { type: 'array', items: ref('LedgerReconciliationMismatch') } },
  },
  LedgerReconcileOutcome: {
    type: 'object',
    required: ['business_date', 'reconciliations', 'mismatch_count', 'date_closed'],
    properties: {
      business_date: ref('Date'),
      reconciliations: { type: 'array', items: ref('LedgerReconciliation'), description: 'One per PSP account' },
      mismatch_count: { type: 'integer', minimum: 0 },
      date_closed: { type: 'boolean' },
    },
  },
};

export const ledgerBackofficePaths = {
  '/v1/backoffice/ledger/reconcile': {
    post: {
      operationId: 'reconcileLedger', tags, summary: 'Backoffice: reconcile the PSP accounts for a business date now',
      description: 'As the daily `ledger-reconciliation` schedule does for yesterday: reads each PSP\'s statement for the date (São Paulo), matches it with every originator\'s '
        + '`psp_cash` line by line (end-to-end id or payout key, and amount) and by closing balance, stores the runs and their mismatches, sends '
        + '`ledger.reconciliation_mismatch` to the originator of each line mismatch, and closes the date when it is over and every run is clean. '
        + '`business_date` defaults to yesterday. Analyst or above. Audited (`ledger.reconcile`), in the runs\' transaction. 503 `pix_unavailable` or '
        + '`pix_collection_unavailable` when a PSP cannot be read (nothing stored).',
      security: staffActSecurity(),
      requestBody: jsonBody({ type: 'object', additionalProperties: false, properties: { business_date: ref('Date') } }, false),
      responses: { 200: json('The runs', ref('LedgerReconcileOutcome')), ...errors(401, 403, 422, 429, 503) },
    },
  },
  '/v1/backoffice/ledger/reconciliations': {
    get: {
      operationId: 'listLedgerReconciliations', tags, summary: 'Backoffice: reconciliation runs, newest first', security: userSecurity('backoffice:read'),
      description: 'Paginated with `limit` and `offset`.',
      parameters: [
        ...pagination,
        { name: 'business_date', in: 'query', required: false, schema: ref('Date') },
        { name: 'status', in: 'query', required: false, schema: status },
      ],
      responses: { 200: json('Page of runs', listOf(ref('LedgerReconciliation'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/backoffice/ledger/reconciliations/{id}': {
    get: {
      operationId: 'getLedgerReconciliation', tags, summary: 'Backoffice: one reconciliation run with its mismatches', security: userSecurity('backoffice:read'),
      description: '404 `ledger_reconciliation_not_found`.',
      parameters: [pathId('id')],
      responses: { 200: json('The run', ref('LedgerReconciliationDetail')), ...errors(401, 403, 404, 422, 429) },
    },
  },
  '/v1/backoffice/ledger/reconciliations/{id}/accept': {
    post: {
      operationId: 'acceptLedgerReconciliation', tags, summary: 'Backoffice: accept a run\'s mismatches as explained, which may close its date',
      description: 'Approver (`backoffice:decide`): the mismatches stay stored; the run counts as settled, and its date closes when it is over and every PSP\'s latest run '
        + 'is clean or accepted. Audited (`ledger.reconciliation_accept`). 409 `ledger_reconciliation_not_mismatched` when the run is clean or already accepted; '
        + '404 `ledger_reconciliation_not_found`.',
      security: userSecurity('backoffice:decide'),
      parameters: [pathId('id')],
      requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['reason'], properties: { reason: { type: 'string', minLength: 1, maxLength: 1000 } } }),
      responses: { 200: json('The run, accepted', ref('LedgerReconciliationDetail')), ...errors(401, 403, 404, 409, 422, 429) },
    },
  },
  '/v1/backoffice/ledger/trial-balance': {
    get: {
      operationId: 'getBackofficeTrialBalance', tags, summary: 'Backoffice: the trial balance of one originator\'s books, or of every originator\'s together',
      description: 'As `GET /v1/ledger/trial-balance`, for staff: each account kind\'s posted debits and credits, of `originator_id`\'s books or, without it, of all of them; the two totals are equal.',
      security: userSecurity('backoffice:read'),
      parameters: [
        { name: 'originator_id', in: 'query', required: false, schema: uuid },
        { name: 'as_of', in: 'query', required: false, schema: timestampInput({ ...dateTime }), description: 'The balances at this moment (RFC 3339); now when absent.' },
      ],
      responses: { 200: json('The trial balance', ref('TrialBalance')), ...errors(401, 403, 422, 429) },
    },
  },
};
