import { FUNDING_LINE_KINDS } from '../../domain/ledger/funding-postings';
import { PSPS } from '../../domain/ledger/chart';
import { clientScopes, errors, json, jsonBody, ref } from '../openapi/helpers';

export const ledgerSandboxSchemas = {
  SandboxStatementLine: {
    type: 'object',
    description: 'A line a sandbox PSP booked on its account that no call of the API causes, to the caller\'s sub-account (its originator id).',
    required: ['id', 'account', 'kind', 'direction', 'amount', 'at'],
    properties: {
      id: { type: 'string', maxLength: 100, pattern: '^[\\x21-\\x7E]+$', description: 'The PSP\'s id of the line: the `external_id` of the ledger transaction that books it' },
      account: { type: 'string', enum: [...PSPS] },
      kind: { type: 'string', enum: [...FUNDING_LINE_KINDS] },
      direction: { type: 'string', enum: ['in', 'out'], description: 'A top-up into the account; a sweep or a fee out of it' },
      amount: ref('Money'),
      at: { type: 'string', format: 'date-time', description: 'When the PSP booked it: the ledger transaction\'s `effective_at`' },
    },
  },
};

export const ledgerSandboxPaths = {
  '/v1/sandbox/pix/statement-lines': {
    post: {
      operationId: 'addSandboxStatementLine', tags: ['ledger'], summary: 'Sandbox: a top-up, a sweep or a PSP fee on a PSP account',
      description: 'Outside production only (404 not_found there). The sandbox PSP books, now, a line its statement lists and no call of the API causes: '
        + '`top_up` (money into the account), `sweep` (out of it), `fee` (the PSP\'s charge, out), on the `payout` or the `collection` account, '
        + 'to the caller\'s sub-account. The ledger reconciliation of its date books it (top-up: Dr `psp_cash` / Cr `funding_transfers`; '
        + 'sweep: Dr `funding_transfers` / Cr `psp_cash`; fee: Dr `psp_fee_expense` / Cr `psp_cash`) once, at the PSP\'s time. '
        + '409 `psp_account_not_in_use` for the collection account of a deployment that collects no PIX; 422 for an amount not positive.',
      security: clientScopes('operation:create'),
      requestBody: jsonBody({
        type: 'object', required: ['account', 'kind', 'amount'], additionalProperties: false,
        properties: { account: { type: 'string', enum: [...PSPS] }, kind: { type: 'string', enum: [...FUNDING_LINE_KINDS] }, amount: ref('PositiveMoneyInput') },
      }),
      responses: { 201: json('The line as the PSP booked it', ref('SandboxStatementLine')), ...errors(401, 403, 404, 409, 422, 429, 502) },
    },
  },
};
