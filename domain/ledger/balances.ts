import { Money } from '../money';
import type { Direction } from './chart';

/** An account's entries summed by side and phase. */
export interface EntrySums {
  postedDebits: Money;
  postedCredits: Money;
  pendingDebits: Money;
  pendingCredits: Money;
}

export interface AccountBalances {
  /** On the account's normal side: what posted transactions left. */
  posted: Money;
  /** On the normal side: what pending transactions would add (negative when they take out). */
  pending: Money;
  /** Posted, less what pending transactions would take out: money on its way in is not counted until it arrives. */
  available: Money;
}

export function balancesOf(normal: Direction, sums: EntrySums): AccountBalances {
  const onNormalSide = (debits: Money, credits: Money) => (normal === 'debit' ? debits.minus(credits) : credits.minus(debits));
  const posted = onNormalSide(sums.postedDebits, sums.postedCredits);
  const outgoing = normal === 'debit' ? sums.pendingCredits : sums.pendingDebits;
  return { posted, pending: onNormalSide(sums.pendingDebits, sums.pendingCredits), available: posted.minus(outgoing) };
}
