import { Dec, Money } from '../money';

/**
 * How a title's discount D is earned over its n days, from the payout to the due date plus the
 * floating days. The effective-interest method earns it at the constant daily rate that turns
 * the price L paid into the R the payer owes; straight-line (an originator's documented policy)
 * earns D/n a day.
 */
export type AccrualMethod = 'effective_interest' | 'straight_line';

export interface AccrualTerms {
  /** L, what the originator paid for the title. */
  price: Money;
  /** R, what the payer owes at face value. */
  requested: Money;
  /** n, the days over which D = R − L is earned. */
  days: number;
  method: AccrualMethod;
}

/**
 * Income to date after `elapsed` of the n days, rounded half-up to cents:
 * L · ((R / L)^(t / n) − 1) by effective interest, D · t / n straight-line; all of D from day n on.
 */
export function incomeToDate(terms: AccrualTerms, elapsed: number): Money {
  const discount = terms.requested.minus(terms.price);
  if (elapsed <= 0) return Money.ZERO;
  if (elapsed >= terms.days || terms.price.isZero()) return elapsed >= terms.days ? discount : Money.ZERO;
  const fraction = new Dec(elapsed).div(terms.days);
  if (terms.method === 'straight_line') return Money.of(discount.amount.times(fraction));
  const growth = terms.requested.amount.div(terms.price.amount).pow(fraction);
  return Money.of(terms.price.amount.times(growth.minus(1)));
}

/** What day `elapsed` posts: the rounded target minus what is already posted (the last day takes the remainder). */
export function accrualDue(terms: AccrualTerms, elapsed: number, alreadyPosted: Money): Money {
  return incomeToDate(terms, elapsed).minus(alreadyPosted);
}

/** Each day's posting, day 1 to day n, when every day was posted on time. */
export function accrualSchedule(terms: AccrualTerms): Money[] {
  const postings: Money[] = [];
  let posted = Money.ZERO;
  for (let day = 1; day <= terms.days; day++) {
    const due = accrualDue(terms, day, posted);
    postings.push(due);
    posted = posted.plus(due);
  }
  return postings;
}

const DAY_MS = 86_400_000;

/** Whole days from one business date (YYYY-MM-DD) to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}
