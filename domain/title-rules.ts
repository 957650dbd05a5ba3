import { Money } from './money';
import { addDays, startOfBusinessDay } from './pricing';

/** DESIGN.md §5: a title's states. PAID, OVERDUE (its balance handed to an assignor payable) and CANCELLED end its tracking. */
export type TitleStatus = 'WAITING_PAYMENT' | 'PARTIALLY_PAID' | 'PAID' | 'OVERDUE' | 'CANCELLED';
export const CLOSED_TITLE_STATUSES: readonly TitleStatus[] = ['PAID', 'OVERDUE', 'CANCELLED'];
/**
 * The states in which a title still counts towards exposure: OVERDUE too, whose tracking has
 * ended but whose balance the assignor still owes (the exposure counters' triggers list the same).
 */
export const OPEN_TITLE_STATUSES = ['WAITING_PAYMENT', 'PARTIALLY_PAID', 'OVERDUE'] as const satisfies readonly TitleStatus[];

/**
 * The overdue moment. The payer has the whole due date plus the grace days: the title turns
 * OVERDUE when the next business day begins, and business days are São Paulo's (the originators',
 * the payers' and the PIX system's calendar), whatever the zone of the server or of the client.
 */
export function overdueAt(dueDate: string, graceDays: number): string {
  return startOfBusinessDay(addDays(dueDate, graceDays + 1)).toISOString();
}

/** A refusal as the api renders it: `code` is the ApplicationFailure type, `detail` the contract's `detail`. */
export interface Refusal {
  code: string;
  detail: string | { code: string; message: string; [field: string]: unknown };
}

/** A title whose operation has not reached PAID is not tracked yet: nothing is owed by its payer to us. */
export const NOT_PAYABLE_YET: Refusal = {
  code: 'title_not_payable_yet',
  detail: { code: 'title_not_payable_yet', message: 'Payer payments are accepted once the title\'s operation is PAID' },
};

/**
 * Why a payer payment cannot be applied to a title in this state, or null when it can. The
 * workflow's validator asks it, and the api asks it with the stored state once the workflow has
 * closed, so both answer the same.
 */
export function payerPaymentRefusal(title: { status: string; outstandingBalance: string }, paidAmountBrl: string): Refusal | null {
  switch (title.status) {
    case 'OVERDUE': return { code: 'title_balance_locked', detail: 'title_balance_locked' };
    case 'PAID': return { code: 'title_already_paid', detail: { code: 'title_already_paid', message: 'The title is paid in full; nothing is left to pay' } };
    case 'CANCELLED': return { code: 'title_cancelled', detail: { code: 'title_cancelled', message: 'The title was cancelled with its operation' } };
  }
  if (Money.of(paidAmountBrl).gt(Money.of(title.outstandingBalance))) {
    return {
      code: 'payment_exceeds_outstanding_balance',
      detail: {
        code: 'payment_exceeds_outstanding_balance',
        message: `The payment of ${Money.of(paidAmountBrl)} exceeds the title's outstanding balance of ${Money.of(title.outstandingBalance)}`,
        paid_amount_brl: Money.of(paidAmountBrl).toString(),
        outstanding_balance: Money.of(title.outstandingBalance).toString(),
      },
    };
  }
  return null;
}
