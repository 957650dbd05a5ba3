import type { Knex } from 'knex';
import { Money } from '../../domain/money';
import { AccountKind, Direction } from '../../domain/ledger/chart';
import { AccountBalances, balancesOf } from '../../domain/ledger/balances';
import { TenantScopedRepository } from './tenant-scoped';

export interface AccountWithBalances extends AccountBalances {
  id: string;
  key: string;
  kind: AccountKind;
  normalBalance: Direction;
  psp: string | null;
  operationId: string | null;
  titleId: string | null;
  payableId: string | null;
  assignorId: string | null;
  createdAt: Date;
}

export interface TrialBalanceLine {
  kind: AccountKind;
  debits: Money;
  credits: Money;
}

/**
 * Balances are never stored: each is the sum of its entries as of a moment. A transaction counts
 * as posted from when it posted (its PSP settlement for a payout), as pending from its effective
 * time until it was posted or voided.
 */
const POSTED = "t.status = 'posted' and coalesce(t.resolved_effective_at, t.effective_at) <= ?";
const PENDING = "t.effective_at <= ? and (t.status = 'pending' or t.resolved_effective_at > ?)";
const cents = (value: unknown) => Money.fromCents((value ?? 0) as string | number);

/** A row of `withSums`. */
export function accountWithBalances(row: Record<string, unknown>): AccountWithBalances {
  const normalBalance = row.normal_balance as Direction;
  return {
    id: row.id as string, key: row.account_key as string, kind: row.kind as AccountKind, normalBalance,
    psp: row.psp as string | null, operationId: row.operation_id as string | null, titleId: row.title_id as string | null,
    payableId: row.payable_id as string | null, assignorId: row.assignor_id as string | null, createdAt: row.created_at as Date,
    ...balancesOf(normalBalance, {
      postedDebits: cents(row.posted_debits), postedCredits: cents(row.posted_credits),
      pendingDebits: cents(row.pending_debits), pendingCredits: cents(row.pending_credits),
    }),
  };
}

export class LedgerBalancesRepository extends TenantScopedRepository {
  /** The accounts `accounts` selects (a query on `ledger_accounts as a`) with their entries summed by side and phase as of `asOf`. */
  withSums(accounts: Knex.QueryBuilder, asOf: Date | null): Knex.QueryBuilder {
    const at = asOf ?? 'infinity';
    const sum = (direction: Direction, phase: string, times: number) => this.db.raw(
      `coalesce(sum(e.amount_cents) filter (where e.direction = '${direction}' and ${phase}), 0)`, Array(times).fill(at),
    );
    return accounts
      .leftJoin('ledger_entries as e', 'e.account_id', 'a.id')
      .leftJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
      .groupBy('a.id')
      .select('a.*', {
        posted_debits: sum('debit', POSTED, 1), posted_credits: sum('credit', POSTED, 1),
        pending_debits: sum('debit', PENDING, 2), pending_credits: sum('credit', PENDING, 2),
      });
  }

  /** The balances of the accounts `filter` selects, as of `asOf` (now when null). */
  async of(filter: (query: Knex.QueryBuilder) => Knex.QueryBuilder, asOf: Date | null): Promise<AccountWithBalances[]> {
    const rows: Record<string, unknown>[] = await this.withSums(filter(this.scoped('ledger_accounts as a')), asOf).orderBy('a.id');
    return rows.map(accountWithBalances);
  }

  /** Each account kind's posted debits and credits as of `asOf`: the two columns' totals are equal, always. */
  trialBalance(asOf: Date | null): Promise<TrialBalanceLine[]> {
    return trialBalanceOf(this.db, this.scoped('ledger_accounts as a'), asOf);
  }
}

/**
 * The trial balance of the accounts `accounts` (a query on `ledger_accounts as a`) selects: one
 * originator's books, or every originator's for staff.
 */
export async function trialBalanceOf(db: Knex, accounts: Knex.QueryBuilder, asOf: Date | null): Promise<TrialBalanceLine[]> {
  const rows: { kind: AccountKind; debits: string; credits: string }[] = await accounts
    .join('ledger_entries as e', 'e.account_id', 'a.id')
    .join('ledger_transactions as t', 't.id', 'e.transaction_id')
    .whereRaw(POSTED, [asOf ?? 'infinity'])
    .groupBy('a.kind').orderBy('a.kind')
    .select('a.kind', db.raw("sum(e.amount_cents) filter (where e.direction = 'debit') as debits"), db.raw("sum(e.amount_cents) filter (where e.direction = 'credit') as credits"));
  return rows.map((row) => ({ kind: row.kind, debits: cents(row.debits), credits: cents(row.credits) }));
}
