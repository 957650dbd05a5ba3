import { Money } from '../money';
import { CLOSED_TITLE_STATUSES, TitleStatus } from '../title-rules';

export interface PixAmounts {
  amount: string;
  fine: string;
  interest: string;
}

/** How one PIX received against a title's charge is booked; the three parts add up to the amount. */
export interface PixSplit {
  /** Reduces the title's balance (principal). */
  appliedBrl: string;
  /** Fine and interest: the originator's late-payment income, never principal. */
  lateIncomeBrl: string;
  /** Returned to the payer: what exceeded the balance, or everything when nothing can be applied. */
  refundedBrl: string;
}

/**
 * A title's `paid_amount` never exceeds what it was owed: the PSP's fine and interest are late
 * income, the rest pays the balance up to what is left, and the excess goes back by `devolucao`.
 * A closed title (paid meanwhile, cancelled, handed over as a payable) takes nothing.
 */
export function splitReceivedPix(pix: PixAmounts, title: { status: TitleStatus; outstandingBalance: string }): PixSplit {
  const amount = Money.of(pix.amount);
  const late = Money.of(pix.fine).plus(Money.of(pix.interest)).min(amount);
  const principal = amount.minus(late);
  const applied = CLOSED_TITLE_STATUSES.includes(title.status) ? Money.ZERO : principal.min(Money.of(title.outstandingBalance));
  if (applied.isZero()) return { appliedBrl: '0.00', lateIncomeBrl: '0.00', refundedBrl: amount.toString() };
  return { appliedBrl: applied.toString(), lateIncomeBrl: late.toString(), refundedBrl: principal.minus(applied).toString() };
}
