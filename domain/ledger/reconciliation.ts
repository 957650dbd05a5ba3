import { Money } from '../money';
import { addDays, startOfBusinessDay } from '../pricing';
import type { FundingLineKind } from './funding-postings';

/** Money into the PSP account (a PIX received) or out of it (a payout, a refund). */
export type CashDirection = 'in' | 'out';

/**
 * One line of a PSP account, as its statement or our books have it. `reference` is what both
 * sides know the movement by: the end-to-end id of a PIX received (and of the PIX a refund
 * returns), or the idempotency key we sent with a payout, which the payout PSP echoes.
 */
export interface CashLine {
  reference: string;
  direction: CashDirection;
  amount: Money;
  at: Date;
  endToEndId: string | null;
  /**
   * On a PSP's line that no call of ours causes (its reference is then the PSP's line id): what it
   * is, and the sub-account it names, the originator whose share of the account it moves.
   */
  funding?: { kind: FundingLineKind; subAccount: string | null };
}

/** What a PSP says about its account for a span: the lines, and the balance at the span's end. */
export interface PspStatement {
  lines: CashLine[];
  closingBalance: Money;
}

export const MISMATCH_KINDS = ['missing_in_ledger', 'missing_at_psp', 'amount_differs', 'closing_balance_differs'] as const;
export type MismatchKind = (typeof MISMATCH_KINDS)[number];

export interface Mismatch {
  kind: MismatchKind;
  reference: string | null;
  endToEndId: string | null;
  direction: CashDirection | null;
  ledgerAmount: Money | null;
  pspAmount: Money | null;
  at: Date | null;
}

/** The instants a business date (São Paulo) spans: [from, to). */
export function businessDaySpan(date: string): { from: Date; to: Date } {
  return { from: startOfBusinessDay(date), to: startOfBusinessDay(addDays(date, 1)) };
}

const identity = (line: CashLine) => `${line.direction}|${line.reference}`;

function grouped(lines: readonly CashLine[]): Map<string, CashLine[]> {
  const groups = new Map<string, CashLine[]>();
  for (const line of lines) groups.set(identity(line), [...(groups.get(identity(line)) ?? []), line]);
  return groups;
}

const lineMismatch = (kind: MismatchKind, line: CashLine, ledger: Money | null, psp: Money | null): Mismatch => ({
  kind, reference: line.reference, endToEndId: line.endToEndId, direction: line.direction, ledgerAmount: ledger, pspAmount: psp, at: line.at,
});

/**
 * A PSP account's day, line by line and by closing balance. Lines pair by direction and
 * reference (several under one reference, say two refunds of one PIX, pair in time order); a
 * pair whose amounts differ is one mismatch, a line without a pair another. The balances are
 * each side's at the end of the day, so a difference carried from an earlier day shows again.
 */
export function reconcile(ledger: readonly CashLine[], psp: PspStatement, ledgerBalance: Money): Mismatch[] {
  const mismatches: Mismatch[] = [];
  const ours = grouped(ledger);
  const theirs = grouped(psp.lines);
  const byTime = (a: CashLine, b: CashLine) => a.at.getTime() - b.at.getTime();
  for (const key of new Set([...ours.keys(), ...theirs.keys()])) {
    const left = (ours.get(key) ?? []).sort(byTime);
    const right = (theirs.get(key) ?? []).sort(byTime);
    for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
      const [mine, its] = [left[i], right[i]];
      if (!its) mismatches.push(lineMismatch('missing_at_psp', mine, mine.amount, null));
      else if (!mine) mismatches.push(lineMismatch('missing_in_ledger', its, null, its.amount));
      else if (!mine.amount.equals(its.amount)) mismatches.push(lineMismatch('amount_differs', its, mine.amount, its.amount));
    }
  }
  if (!ledgerBalance.equals(psp.closingBalance)) {
    mismatches.push({ kind: 'closing_balance_differs', reference: null, endToEndId: null, direction: null, ledgerAmount: ledgerBalance, pspAmount: psp.closingBalance, at: null });
  }
  return mismatches;
}

/** Where each PSP's reconciliation stands for a date; the date closes when every PSP's is clean or accepted. */
export type ReconciliationStatus = 'clean' | 'mismatched' | 'accepted';
