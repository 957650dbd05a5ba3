import type { Knex } from 'knex';
import { Money } from '../../domain/money';
import type { AccountKind, Direction } from '../../domain/ledger/chart';
import type { TransactionKind, TransactionStatus } from '../../domain/ledger/transaction';
import type { StatementEntry } from '../../domain/ledger/statement';
import { AccountWithBalances, accountWithBalances, LedgerBalancesRepository } from './ledger-balances';
import { Page, paged } from './pagination';
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

export interface LedgerEntryRead {
  accountId: string;
  accountKind: AccountKind;
  direction: Direction;
  amount: Money;
  operationId: string | null;
  titleId: string | null;
}

export interface LedgerTransactionRead {
  id: string;
  kind: TransactionKind;
  status: TransactionStatus;
  effectiveAt: Date;
  recordedAt: Date;
  resolvedEffectiveAt: Date | null;
  operationId: string | null;
  titleId: string | null;
  payableId: string | null;
  assignorId: string | null;
  pixEndToEndId: string | null;
  externalId: string | null;
  reversesId: string | null;
  entries: LedgerEntryRead[];
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

  async transactions(filters: TransactionFilters, limit: number, offset: number): Promise<Page<LedgerTransactionRead>> {
    const filtered = () => {
      const query = this.scoped('ledger_transactions as t');
      if (filters.accountId) query.whereIn('t.id', this.db('ledger_entries').where('account_id', filters.accountId).select('transaction_id'));
      if (filters.operationId) query.where('t.operation_id', filters.operationId);
      if (filters.titleId) query.where('t.title_id', filters.titleId);
      if (filters.effectiveFrom) query.where('t.effective_at', '>=', filters.effectiveFrom);
      if (filters.effectiveTo) query.where('t.effective_at', '<', filters.effectiveTo);
      return query;
    };
    const { items, total } = await paged<Record<string, unknown>>(filtered, (query) => inOrder('t')(query.select('t.*')), limit, offset);
    return { items: await this.withEntries(items), total };
  }

  async transaction(id: string): Promise<LedgerTransactionRead | undefined> {
    const [row] = await this.withEntries(await this.scoped('ledger_transactions as t').where('t.id', id).select('t.*'));
    return row;
  }

  private async withEntries(rows: Record<string, unknown>[]): Promise<LedgerTransactionRead[]> {
    const entries: Record<string, unknown>[] = rows.length === 0 ? [] : await this.db('ledger_entries as e').join('ledger_accounts as a', 'a.id', 'e.account_id')
      .whereIn('e.transaction_id', rows.map((row) => row.id as string)).orderBy('e.transaction_id').orderBy('e.position')
      .select('e.transaction_id', 'e.account_id', 'a.kind', 'e.direction', 'e.amount_cents', 'e.operation_id', 'e.title_id');
    const byTransaction = new Map<string, LedgerEntryRead[]>();
    for (const entry of entries) {
      const list = byTransaction.get(entry.transaction_id as string) ?? [];
      list.push({
        accountId: entry.account_id as string, accountKind: entry.kind as AccountKind, direction: entry.direction as Direction,
        amount: Money.fromCents(entry.amount_cents as number), operationId: entry.operation_id as string | null, titleId: entry.title_id as string | null,
      });
      byTransaction.set(entry.transaction_id as string, list);
    }
    return rows.map((row) => ({
      id: row.id as string, kind: row.kind as TransactionKind, status: row.status as TransactionStatus,
      effectiveAt: row.effective_at as Date, recordedAt: row.recorded_at as Date, resolvedEffectiveAt: row.resolved_effective_at as Date | null,
      operationId: row.operation_id as string | null, titleId: row.title_id as string | null, payableId: row.payable_id as string | null,
      assignorId: row.assignor_id as string | null, pixEndToEndId: row.pix_end_to_end_id as string | null, externalId: row.external_id as string | null,
      reversesId: row.reverses_id as string | null, entries: byTransaction.get(row.id as string) ?? [],
    }));
  }
}
