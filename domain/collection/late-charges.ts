import { Dec, Money } from '../money';
import { businessDate } from '../pricing';

const DAY_MS = 86_400_000;

export interface LateTerms {
  original: Money;
  /** `YYYY-MM-DD`: payable without charges through the whole day (America/Sao_Paulo). */
  dueDate: string;
  paidOn: Date;
  /** The fine, a percentage of the original amount, once (API Pix `multa` modalidade 2). */
  finePct: string;
  /** Simple interest, a percentage a month over calendar days, 30 to the month (API Pix `juros` modalidade 3). */
  interestMonthlyPct: string;
}

/**
 * What a payer owes on top of the original amount for paying after the due date, as Brazilian
 * collection practice (and the PSP computing a `cobv`'s amount) counts it: each rounded to cents.
 */
export function lateComponents(terms: LateTerms): { fine: Money; interest: Money; daysLate: number } {
  const paidDate = businessDate(terms.paidOn);
  const daysLate = Math.max(0, Math.round((Date.parse(paidDate) - Date.parse(terms.dueDate)) / DAY_MS));
  if (daysLate === 0) return { fine: Money.ZERO, interest: Money.ZERO, daysLate };
  const original = terms.original.amount;
  return {
    fine: Money.of(original.times(new Dec(terms.finePct)).div(100)),
    interest: Money.of(original.times(new Dec(terms.interestMonthlyPct)).div(100).div(30).times(daysLate)),
    daysLate,
  };
}
