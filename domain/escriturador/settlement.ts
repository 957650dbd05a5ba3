import type { PayerPaymentInput } from '../lifecycle-messages';
import { Money } from '../money';
import { CLOSED_TITLE_STATUSES, type TitleStatus } from '../title-rules';
import type { EscrituradorEvent } from './port';
import type { RegistrationStatus } from './registration';

export type SettlementEvent = Extract<EscrituradorEvent, { type: 'duplicata.settled' }>;

/** Our act is (or was, until the duplicata was paid in full) in force: a payment to the holder is a payment to us. */
export const settlementIsOurs = (registration: RegistrationStatus | null | undefined): boolean => registration === 'registered' || registration === 'settled';

/** Refusals of the title's payment that mean it takes nothing more from a settlement (closed meanwhile). */
export const TITLE_CLOSED_REFUSALS: readonly string[] = ['title_already_paid', 'title_balance_locked', 'title_cancelled'];

/** The payment a settlement event makes on our title, keyed by the event: a repeat or a concurrent delivery applies it once. */
export const settlementExternalId = (eventId: string) => `registrar:${eventId}`;

/** What a settlement's payment applied: all of it, or only the title's balance (the rest is the payer's overpayment). */
export const appliedOutcome = (event: SettlementEvent, applied: string): 'applied' | 'applied_in_part' => (Money.of(applied).equals(Money.of(event.amount)) ? 'applied' : 'applied_in_part');

/**
 * The payer payment a settlement of the boleto dinâmico makes on our title, sent through the
 * title's workflow like any payer payment (channel REGISTRAR), up to the title's balance.
 * Null: the title takes no more payments (paid by another path, or gone back to the assignor).
 */
export function settlementPayment(event: SettlementEvent, title: { status: TitleStatus; outstandingBalance: string }): PayerPaymentInput | null {
  const balance = Money.of(title.outstandingBalance);
  if (CLOSED_TITLE_STATUSES.includes(title.status) || balance.isZero()) return null;
  return {
    externalId: settlementExternalId(event.eventId), paidAmountBrl: Money.of(event.amount).min(balance).toString(), paidAt: event.paidAt,
    channel: 'REGISTRAR', recordedBy: 'registrar:webhook',
  };
}
