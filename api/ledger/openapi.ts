import { ACCOUNT_KINDS } from '../../domain/ledger/chart';
import { TRANSACTION_KINDS } from '../../domain/ledger/transaction';
import { clientSecurity, errors, json, listOf, pagination, pathId, ref, Schema, timestampInput } from '../openapi/helpers';
import { ledgerSandboxPaths, ledgerSandboxSchemas } from './sandbox-openapi';

const uuid = { type: 'string', format: 'uuid' };
const nullableUuid = { type: ['string', 'null'], format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const query = (name: string, schema: Schema, description: string): Schema => ({ name, in: 'query', required: false, schema, description });
const moment = (name: string, description: string) => query(name, timestampInput({ ...dateTime }), description);
const asOf = moment('as_of', 'The balances at this moment (RFC 3339); now when absent.');

const read = clientSecurity(['ledger:read']);

const references = {
  operation_id: nullableUuid,
  title_id: nullableUuid,
  payable_id: nullableUuid,
  assignor_id: nullableUuid,
};

export const ledgerSchemas = {
  ...ledgerSandboxSchemas,
  LedgerAccount: {
    type: 'object',
    description: 'An account of the originator\'s books (docs/ledger.md has the chart). Balances are on the account\'s normal side.',
    required: ['id', 'kind', 'normal_balance', 'psp', ...Object.keys(references), 'posted', 'pending', 'available', 'as_of', 'created_at'],
    properties: {
      id: uuid,
      kind: { type: 'string', enum: [...ACCOUNT_KINDS] },
      normal_balance: { type: 'string', enum: ['debit', 'credit'] },
      psp: { type: ['string', 'null'], enum: ['payout', 'collection', null], description: 'The PSP account a `psp_cash` account mirrors' },
      ...references,
      posted: { ...ref('Money'), description: 'What posted transactions left' },
      pending: { ...ref('Money'), description: 'What pending transactions would add (negative: take out)' },
      available: { ...ref('Money'), description: 'Posted, less what pending transactions would take out' },
      as_of: { ...dateTime, description: 'The moment the balances are of' },
      created_at: dateTime,
    },
  },
  LedgerEntry: {
    type: 'object',
    required: ['account_id', 'account_kind', 'direction', 'amount', 'operation_id', 'title_id'],
    properties: {
      account_id: uuid,
      account_kind: { type: 'string', enum: [...ACCOUNT_KINDS] },
      direction: { type: 'string', enum: ['debit', 'credit'] },
      amount: ref('Money'),
      operation_id: nullableUuid,
      title_id: nullableUuid,
    },
  },
  LedgerTransaction: {
    type: 'object',
    description: 'A balanced set of entries. `pending` transfers are later `posted` or `voided`, never edited; a correction is a `reversal`.',
    required: ['id', 'kind', 'status', 'effective_at', 'recorded_at', 'resolved_at', ...Object.keys(references), 'pix_end_to_end_id', 'external_id', 'reverses_id', 'entries'],
    properties: {
      id: uuid,
      kind: { type: 'string', enum: [...TRANSACTION_KINDS] },
      status: { type: 'string', enum: ['pending', 'posted', 'voided'] },
      effective_at: { ...dateTime, description: 'When it happened (a PSP\'s settlement, a payer\'s payment)' },
      recorded_at: { ...dateTime, description: 'When it was written' },
      resolved_at: { type: ['string', 'null'], format: 'date-time', description: 'When a pending transfer was posted or voided (its effective time)' },
      ...references,
      pix_end_to_end_id: { type: ['string', 'null'] },
      external_id: { type: ['string', 'null'] },
      reverses_id: nullableUuid,
      entries: { type: 'array', items: ref('LedgerEntry') },
    },
  },
  TrialBalance: {
    type: 'object',
    required: ['as_of', 'lines', 'debits', 'credits'],
    properties: {
      as_of: dateTime,
      lines: {
        type: 'array',
        items: { type: 'object', required: ['kind', 'debits', 'credits'], properties: { kind: { type: 'string', enum: [...ACCOUNT_KINDS] }, debits: ref('Money'), credits: ref('Money') } },
      },
      debits: { ...ref('Money'), description: 'Σ posted debits; always equal to `credits`' },
      credits: ref('Money'),
    },
  },
};

const tags = ['ledger'];

export const ledgerPaths = {
  ...ledgerSandboxPaths,
  '/v1/ledger/accounts': {
    get: {
      operationId: 'listLedgerAccounts', tags, summary: 'The originator\'s accounts with their balances, in the order opened', security: read,
      description: 'An account opens the first time a transaction moves it. Paginated with `limit` and `offset`.',
      parameters: [
        ...pagination,
        query('kind', { type: 'string', enum: [...ACCOUNT_KINDS] }, 'Only accounts of this kind.'),
        query('operation_id', uuid, 'Only the accounts of this operation (its titles\' and its price payable).'),
        query('title_id', uuid, 'Only the accounts of this title.'),
        query('assignor_id', uuid, 'Only the accounts of this assignor.'),
        query('payable_id', uuid, 'Only the account of this payable.'),
        asOf,
      ],
      responses: { 200: json('Page of accounts', listOf(ref('LedgerAccount'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/ledger/accounts/{id}': {
    get: {
      operationId: 'getLedgerAccount', tags, summary: 'One account with its balances', security: read,
      description: '404 `ledger_account_not_found` when the id is unknown or another originator\'s.',
      parameters: [pathId('id'), asOf],
      responses: { 200: json('The account', ref('LedgerAccount')), ...errors(401, 403, 404, 422, 429) },
    },
  },
  '/v1/ledger/accounts/{id}/statement.csv': {
    get: {
      operationId: 'getLedgerAccountStatement', tags, summary: 'An account\'s statement as CSV', security: read,
      description: 'The posted balance at `from` (zero without it), each entry posted after `from` up to `to` (now without it) with the balance it leaves, '
        + 'and the balance at `to`. Columns: line, posted_at, transaction_id, kind, direction, amount, balance. '
        + '`lang=pt-BR`: the same in Portuguese (linha, data_lancamento, transacao_id, tipo, natureza, valor, saldo; saldo_inicial, lancamento, saldo_final; debito, credito), '
        + 'a comma as the decimal mark and `;` between fields. Every field is quoted. 404 `ledger_account_not_found`.',
      parameters: [
        pathId('id'),
        moment('from', 'The statement opens at this moment (RFC 3339).'),
        moment('to', 'The statement closes at this moment (RFC 3339); now when absent.'),
        query('lang', { type: 'string', enum: ['en', 'pt-BR'], default: 'en' }, 'Column names, labels and number format.'),
      ],
      responses: {
        200: { description: 'CSV (RFC 4180), every field quoted', content: { 'text/csv': { schema: { type: 'string' } } } },
        ...errors(401, 403, 404, 422, 429),
      },
    },
  },
  '/v1/ledger/transactions': {
    get: {
      operationId: 'listLedgerTransactions', tags, summary: 'The originator\'s ledger transactions, in the order recorded', security: read,
      description: 'Paginated with `limit` and `offset`.',
      parameters: [
        ...pagination,
        query('account_id', uuid, 'Only transactions with an entry on this account.'),
        query('operation_id', uuid, 'Only transactions of this operation.'),
        query('title_id', uuid, 'Only transactions of this title.'),
        moment('effective_from', 'Effective at or after this moment.'),
        moment('effective_to', 'Effective before this moment.'),
      ],
      responses: { 200: json('Page of transactions', listOf(ref('LedgerTransaction'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/ledger/transactions/{id}': {
    get: {
      operationId: 'getLedgerTransaction', tags, summary: 'One ledger transaction with its entries', security: read,
      description: '404 `ledger_transaction_not_found` when the id is unknown or another originator\'s.',
      parameters: [pathId('id')],
      responses: { 200: json('The transaction', ref('LedgerTransaction')), ...errors(401, 403, 404, 422, 429) },
    },
  },
  '/v1/ledger/trial-balance': {
    get: {
      operationId: 'getLedgerTrialBalance', tags, summary: 'Each account kind\'s posted debits and credits', security: read,
      description: 'The two totals are equal at every moment.',
      parameters: [asOf],
      responses: { 200: json('The trial balance', ref('TrialBalance')), ...errors(401, 403, 422, 429) },
    },
  },
};
