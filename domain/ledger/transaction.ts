import { Money } from '../money';
import type { AccountRef, Direction } from './chart';

export const TRANSACTION_KINDS = [
  'acquisition', 'netting', 'payout', 'payout_difference', 'payer_payment', 'unidentified_receipt', 'refund', 'accrual',
  'overdue_recourse', 'payable_payment', 'write_off', 'discount_credit', 'manual_payable', 'reversal', 'top_up', 'sweep', 'psp_fee',
] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export type TransactionStatus = 'pending' | 'posted' | 'voided';

/** What a transaction concerns; each applies where it makes sense for the kind. */
export interface LedgerReferences {
  operationId?: string;
  titleId?: string;
  payableId?: string;
  assignorId?: string;
  pixEndToEndId?: string;
  externalId?: string;
}

export interface EntrySpec {
  account: AccountRef;
  direction: Direction;
  amount: Money;
  /** The operation and title the entry concerns, when it concerns one. */
  operationId: string | null;
  titleId: string | null;
}

export interface TransactionSpec {
  kind: TransactionKind;
  /** Derived from the cause (the title, the PIX attempt, the payment): a retried write posts nothing twice. */
  idempotencyKey: string;
  status: 'pending' | 'posted';
  effectiveAt: Date;
  references: LedgerReferences;
  entries: EntrySpec[];
  /** The key of the transaction this one reverses. */
  reverses?: string;
}

/** One side of a transaction: `amount` to `account`; a zero amount is left out. */
export interface Leg {
  account: AccountRef;
  amount: Money;
  operationId?: string | null;
  titleId?: string | null;
}

const entriesOf = (direction: Direction, legs: readonly Leg[]): EntrySpec[] => legs
  .filter((leg) => !leg.amount.isZero())
  .map((leg) => ({ account: leg.account, direction, amount: leg.amount, operationId: leg.operationId ?? null, titleId: leg.titleId ?? null }));

/** Σ debits − Σ credits. */
export function imbalance(entries: readonly EntrySpec[]): Money {
  return Money.sum(entries.map((entry) => (entry.direction === 'debit' ? entry.amount : Money.ZERO.minus(entry.amount))));
}

/**
 * A transaction from its debits and credits. A builder that would produce one that does not
 * balance, or that moves nothing, has a bug: it throws rather than hand the database a
 * transaction it would refuse at commit.
 */
export function transaction(
  head: Omit<TransactionSpec, 'entries'>,
  debits: readonly Leg[],
  credits: readonly Leg[],
): TransactionSpec {
  const entries = [...entriesOf('debit', debits), ...entriesOf('credit', credits)];
  if (entries.some((entry) => entry.amount.isNegative())) throw new Error(`ledger ${head.kind}: negative amount`);
  if (entries.length < 2) throw new Error(`ledger ${head.kind}: fewer than two entries`);
  if (!imbalance(entries).isZero()) throw new Error(`ledger ${head.kind}: debits and credits differ by ${imbalance(entries).toString()}`);
  return { ...head, entries };
}

/** The correction of a posted transaction: the same entries on the opposite sides, at `effectiveAt`. */
export function reversal(original: TransactionSpec, effectiveAt: Date): TransactionSpec {
  return {
    kind: 'reversal', idempotencyKey: `reversal:${original.idempotencyKey}`, status: 'posted', effectiveAt,
    references: original.references, reverses: original.idempotencyKey,
    entries: original.entries.map((entry) => ({ ...entry, direction: entry.direction === 'debit' ? 'credit' : 'debit' })),
  };
}
