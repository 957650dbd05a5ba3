import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import type { PaymentChannel } from '../../domain/lifecycle-messages';
import { fromColumns } from './columns';
import { TenantScopedRepository } from './tenant-scoped';

export interface TitlePaymentRow {
  id: string;
  titleId: string;
  externalId: string;
  amount: string;
  remainingAfter: string;
  paidAt: Date;
  channel: PaymentChannel;
  recordedBy: string;
  receivedBrl: string | null;
  lateIncomeBrl: string;
  refundedBrl: string;
  createdAt: Date;
}

export interface NewTitlePayment {
  externalId: string;
  amount: Money;
  paidAt: Date;
  channel: PaymentChannel;
  recordedBy: string;
  collected?: { receivedBrl: string; lateIncomeBrl: string; refundedBrl: string };
}

/**
 * Whose title this is: the backoffice's one cross-tenant read here (staff work across
 * originators, DESIGN.md §8); everything after it goes through the owner's scoped repositories.
 */
export async function titleOwner(db: Knex, titleId: string): Promise<string | undefined> {
  const row = await db('titles').where({ id: titleId }).first('originator_id');
  return row?.originator_id;
}

/** How a payment reached us, read by the activity that informs the escriturador (which reported some of them itself). */
export async function channelOfPayment(db: Knex, paymentId: string): Promise<PaymentChannel | undefined> {
  const row = await db('title_payments').where({ id: paymentId }).first('channel');
  return row?.channel;
}

export class TitlePaymentsRepository extends TenantScopedRepository {
  async byExternalId(titleId: string, externalId: string): Promise<TitlePaymentRow | undefined> {
    const row = await this.scoped('title_payments').where({ title_id: titleId, external_id: externalId }).first();
    return row ? fromColumns<TitlePaymentRow>(row) : undefined;
  }

  /**
   * Records the payment and moves the title's balance at `at` (now, or the test clock's time); the
   * caller holds the title's row lock.
   */
  async apply(title: { id: string; outstandingBalance: string; paidAmount: string }, payment: NewTitlePayment, at: Date): Promise<TitlePaymentRow> {
    const remaining = Money.of(title.outstandingBalance).minus(payment.amount);
    await this.scoped('titles').where({ id: title.id }).update({
      status: remaining.isZero() ? 'PAID' : 'PARTIALLY_PAID', outstanding_balance: remaining.toString(),
      paid_amount: Money.of(title.paidAmount).plus(payment.amount).toString(), updated_at: at,
    });
    const [row] = await this.insertOwned('title_payments', {
      id: uuidv7(), title_id: title.id, external_id: payment.externalId, amount: payment.amount.toString(), remaining_after: remaining.toString(),
      paid_at: payment.paidAt, channel: payment.channel, recorded_by: payment.recordedBy,
      ...(payment.collected ? { received_brl: payment.collected.receivedBrl, late_income_brl: payment.collected.lateIncomeBrl, refunded_brl: payment.collected.refundedBrl } : {}),
    }).returning('*');
    return fromColumns<TitlePaymentRow>(row);
  }
}
