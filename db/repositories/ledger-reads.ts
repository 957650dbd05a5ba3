import type { Knex } from 'knex';
import { Money } from '../../domain/money';
import type { Direction } from '../../domain/ledger/chart';
import type { StatementEntry } from '../../domain/ledger/statement';
import { AccountWithBalances, accountWithBalances, LedgerBalancesRepository } from './ledger-balances';
import { Page, paged } from './pagination';
import { Statement, statementRows } from '../statement';
import { TenantScopedRepository } from './tenant-scoped';

export interface AccountFilters {
  kind?: string;
  operationId?: string;
  titleId?: string;
  assignorId?: string;
  payableId?: string;
}

export interface TransactionFilters {
  accountId?: string;
  operationId?: string;
  titleId?: string;
  effectiveFrom?: Date;
  effectiveTo?: Date;
}

/**
 * Postgres writes the transactions the API answers, as the JSON text `JSON.stringify` made of the
 * document's LedgerTransaction built in JS: the same fields in the same order, `null` where a
 * reference is absent, strings escaped by `to_json` (as JSON.stringify escapes them), money as our
 * money strings (cents times 0.01: exactly two places), moments as `Date#toISOString` writes them
 * (UTC, milliseconds; the microseconds cut, as pg's Date cut them). Built in JS (rows, Money, Date,
 * presenter objects, JSON.stringify), a page of 50 with their entries cost the api about 2.5 ms of
 * CPU (bench/README.md, the ledger's transaction list). test/api/ledger-transaction-bytes.test.ts
 * keeps that presenter and compares the bytes.
 */
const ISO_MOMENT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const jsonOf = {
  uuid: (column: string) => `coalesce('"' || ${column} || '"', 'null')`,
  text: (column: string) => `coalesce(to_json(${column})::text, 'null')`,
  moment: (column: string) => `coalesce('"' || to_char(${column} at time zone 'UTC', ${ISO_MOMENT}) || '"', 'null')`,
  money: (cents: string) => `'"' || (${cents} * 0.01) || '"'`,
};

/** `{"name":value,...}`, each value the SQL that writes its JSON. */
const jsonObject = (fields: Record<string, string>): string =>
  `${Object.entries(fields).map(([name, value], at) => `'${at === 0 ? '{' : ','}"${name}":' || ${value}`).join(' || ')} || '}'`;

const ENTRY_JSON = jsonObject({
  account_id: jsonOf.uuid('e.account_id'), account_kind: jsonOf.text('a.kind'), direction: jsonOf.text('e.direction'),
  amount: jsonOf.money('e.amount_cents'), operation_id: jsonOf.uuid('e.operation_id'), title_id: jsonOf.uuid('e.title_id'),
});

/** A LedgerTransaction of the row `t`, its entries' JSON (comma-separated, in their order) in `x.entries`. */
const TRANSACTION_JSON = jsonObject({
  id: jsonOf.uuid('t.id'), kind: jsonOf.text('t.kind'), status: jsonOf.text('t.status'),
  effective_at: jsonOf.moment('t.effective_at'), recorded_at: jsonOf.moment('t.recorded_at'), resolved_at: jsonOf.moment('t.resolved_effective_at'),
  operation_id: jsonOf.uuid('t.operation_id'), title_id: jsonOf.uuid('t.title_id'), payable_id: jsonOf.uuid('t.payable_id'), assignor_id: jsonOf.uuid('t.assignor_id'),
  pix_end_to_end_id: jsonOf.text('t.pix_end_to_end_id'), external_id: jsonOf.text('t.external_id'), reverses_id: jsonOf.uuid('t.reverses_id'),
  entries: `'[' || coalesce(x.entries, '') || ']'`,
});

/**
 * Each transaction of `listed` (a query of whole `ledger_transactions` rows) as a row: its id,
 * whether it is posted, and its JSON. Their entries are joined once for all of them: as a subquery
 * per transaction, each one hashed the originator's accounts again.
 */
const renderedTransactions = (listed: string) => `with listed as (${listed}),
  entries as (select e.transaction_id, string_agg(${ENTRY_JSON}, ',' order by e.position) as entries
    from listed l join ledger_entries e on e.transaction_id = l.id join ledger_accounts a on a.id = e.account_id group by e.transaction_id)
  select t.id, t.status = 'posted' as posted, ${TRANSACTION_JSON} as json from listed t left join entries x on x.transaction_id = t.id`;

/**
 * One statement for a page of transactions: the count before pagination and the page's ids, oldest
 * first (ids are UUIDv7), comma-separated; the api keeps posted transactions' renderings and has
 * the others written by `renderedTransactions`. The shapes read by one key are prepared once per
 * connection, and their indexes `(originator_id, operation_id|title_id, id)` (migration
 * 20261128154952) answer both the count and the ids from the index alone; the others, whose best
 * plan depends on how much they select, are planned for their values each time.
 */
function transactionPageStatement(originatorId: string, filters: TransactionFilters, limit: number, offset: number): Statement {
  const values: unknown[] = [originatorId];
  const bind = (value: unknown) => `$${values.push(value)}`;
  const where = ['t.originator_id = $1'];
  if (filters.accountId) where.push(`t.id in (select transaction_id from ledger_entries where account_id = ${bind(filters.accountId)})`);
  if (filters.operationId) where.push(`t.operation_id = ${bind(filters.operationId)}`);
  if (filters.titleId) where.push(`t.title_id = ${bind(filters.titleId)}`);
  if (filters.effectiveFrom) where.push(`t.effective_at >= ${bind(filters.effectiveFrom)}`);
  if (filters.effectiveTo) where.push(`t.effective_at < ${bind(filters.effectiveTo)}`);
  const selected = `from ledger_transactions t where ${where.join(' and ')}`;
  const page = `select t.id ${selected} order by t.id limit ${bind(limit)} offset ${bind(offset)}`;
  const text = `select (select count(*) ${selected}) as total, (select coalesce(string_agg(p.id::text, ',' order by p.id), '') from (${page}) p) as ids`;
  const byOneKey = where.length === 2 && !filters.accountId && !filters.effectiveFrom && !filters.effectiveTo;
  return byOneKey ? { name: `ledger_transaction_ids_by_${filters.operationId ? 'operation' : 'title'}`, text, values } : { text, values };
}

/** A transaction as the API answers it: the JSON text of a LedgerTransaction, and whether it is posted (it will never change). */
export interface RenderedTransaction {
  id: string;
  posted: boolean;
  json: string;
}

/** Oldest first: a ledger reads in the order it was written (ids are UUIDv7). */
const inOrder = (table: string) => (query: Knex.QueryBuilder) => query.orderBy(`${table}.id`, 'asc');

/** The originator's books as the API shows them. */
export class LedgerReadsRepository extends TenantScopedRepository {
  async accounts(filters: AccountFilters, asOf: Date | null, limit: number, offset: number): Promise<Page<AccountWithBalances>> {
    const filtered = () => {
      const query = this.scoped('ledger_accounts as a');
      if (filters.kind) query.where('a.kind', filters.kind);
      if (filters.operationId) query.where('a.operation_id', filters.operationId);
      if (filters.titleId) query.where('a.title_id', filters.titleId);
      if (filters.assignorId) query.where('a.assignor_id', filters.assignorId);
      if (filters.payableId) query.where('a.payable_id', filters.payableId);
      return query;
    };
    const balances = new LedgerBalancesRepository(this.db, this.originatorId);
    const { items, total } = await paged<Record<string, unknown>>(filtered, (query) => inOrder('a')(balances.withSums(query, asOf)), limit, offset);
    return { items: items.map(accountWithBalances), total };
  }

  async account(id: string, asOf: Date | null): Promise<AccountWithBalances | undefined> {
    const [account] = await new LedgerBalancesRepository(this.db, this.originatorId).of((query) => query.where('a.id', id), asOf);
    return account;
  }

  /** The account's posted entries after `from` up to `to`, in the order they posted. */
  async postedEntries(accountId: string, from: Date | null, to: Date): Promise<StatementEntry[]> {
    const postedAt = this.db.raw('coalesce(t.resolved_effective_at, t.effective_at)');
    const rows: Record<string, unknown>[] = await this.scoped('ledger_entries as e').join('ledger_transactions as t', 't.id', 'e.transaction_id')
      .where({ 'e.account_id': accountId, 't.status': 'posted' })
      .where(postedAt, '>', from ?? '-infinity').where(postedAt, '<=', to)
      .orderByRaw('coalesce(t.resolved_effective_at, t.effective_at), t.id, e.position')
      .select({ posted_at: postedAt }, 't.id', 't.kind', 'e.direction', 'e.amount_cents');
    return rows.map((row) => ({
      postedAt: row.posted_at as Date, transactionId: row.id as string, kind: row.kind as string,
      direction: row.direction as Direction, amount: Money.fromCents(row.amount_cents as number),
    }));
  }

  /** The ids of a page of the transactions `filters` select, oldest first, and their count before pagination. */
  async transactionPage(filters: TransactionFilters, limit: number, offset: number): Promise<{ ids: string[]; total: number }> {
    const [row] = await statementRows<{ ids: string; total: number }>(this.db, transactionPageStatement(this.originatorId, filters, limit, offset));
    return { ids: row.ids === '' ? [] : row.ids.split(','), total: row.total };
  }

  /** The originator's transactions among `ids`, in no order; an id not the originator's is left out. */
  async renderedTransactions(ids: readonly string[]): Promise<RenderedTransaction[]> {
    return statementRows<RenderedTransaction>(this.db, {
      name: 'ledger_transactions_rendered', text: renderedTransactions('select * from ledger_transactions where originator_id = $1 and id = any($2::uuid[])'), values: [this.originatorId, ids],
    });
  }
}
