import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import { fromColumns } from './columns';
import { payableOf, PayableRow, PayablesRepository } from './payables';
import { TenantScopedRepository } from './tenant-scoped';
import { recordPayableEvent } from './record-events';
import { PayableBooks } from './ledger-payable-books';

/** How a debit reached the payable: sent by the assignor, netted by an operation, or credited. */
export type PaymentSource = 'ASSIGNOR_PIX_DIRECT' | 'ASSIGNOR_BANK_TRANSFER' | 'OPERATION_NETTING' | 'DISCOUNT_CREDIT';

export interface PayablePaymentRow {
  id: string;
  payableId: string;
  source: PaymentSource;
  amount: string;
  remainingAfter: string;
  externalId: string | null;
  operationId: string | null;
  discountCreditId: string | null;
  reversedAt: Date | null;
  createdAt: Date;
}

const lineOf = (row: Record<string, unknown>) => fromColumns<PayablePaymentRow>(row);

export interface DebitEntry {
  source: PaymentSource;
  externalId?: string | null;
  operationId?: string | null;
  discountCreditId?: string | null;
  /** When the debit happens: a netting operation's test clock time; now when absent. */
  at?: Date;
}

/**
 * Every move of a payable's balance, one ledger line each. A payable opened by an overdue title
 * carries that title's locked balance, so the title's `outstanding_balance` follows the payable's
 * `remaining` and open exposure falls as the assignor repays.
 */
export class PayablesLedger extends TenantScopedRepository {
  private async followOriginTitle(payable: PayableRow, outstanding: string | Money): Promise<void> {
    if (payable.origin !== 'TITLE_OVERDUE' || !payable.originTitleId) return;
    await this.scoped('titles').where({ id: payable.originTitleId })
      .update({ outstanding_balance: outstanding.toString(), updated_at: new Date() });
  }

  /**
   * Debits a payable the caller has locked, by at most its remaining balance (the caller checks).
   * The debit that pays it off records `payable.paid`, named by its ledger line: a payable paid
   * again after a netting was given back is a new occurrence.
   */
  async debit(payable: PayableRow, amount: Money, entry: DebitEntry): Promise<PayablePaymentRow> {
    const remaining = Money.of(payable.remaining).minus(amount);
    const now = entry.at ?? new Date();
    const [updated] = await this.scoped('assignor_payables').where({ id: payable.id }).update({
      paid_amount: Money.of(payable.paidAmount).plus(amount).toString(), remaining: remaining.toString(),
      status: remaining.isZero() ? 'PAID' : 'PARTIALLY_PAID', settled_at: remaining.isZero() ? now : null, updated_at: now,
    }).returning('*');
    await this.followOriginTitle(payable, remaining);
    const [row] = await this.insertOwned('payable_payments', {
      id: uuidv7(), payable_id: payable.id, source: entry.source, amount: amount.toString(), remaining_after: remaining.toString(),
      external_id: entry.externalId ?? null, operation_id: entry.operationId ?? null, discount_credit_id: entry.discountCreditId ?? null,
    }).returning('*');
    const line = lineOf(row);
    await new PayableBooks(this.db, this.originatorId).debited(payable, line, now);
    if (remaining.isZero()) await recordPayableEvent(this.db, payableOf(updated)!, 'payable.paid', line.id);
    return line;
  }

  /** Spreads `amount` over the assignor's open payables, oldest first; never more than they owe in all. */
  async debitOldestFirst(assignorId: string, amount: Money, entry: DebitEntry): Promise<PayablePaymentRow[]> {
    const lines: PayablePaymentRow[] = [];
    let left = amount;
    for (const payable of await new PayablesRepository(this.db, this.originatorId).openOf(assignorId, true)) {
      if (left.isZero()) break;
      const part = left.min(Money.of(payable.remaining));
      lines.push(await this.debit(payable, part, entry));
      left = left.minus(part);
    }
    return lines;
  }

  /** Forgives what is left of a payable the caller has locked. */
  async writeOff(payable: PayableRow, reason: string): Promise<PayableRow> {
    const now = new Date();
    const [row] = await this.scoped('assignor_payables').where({ id: payable.id }).update({
      written_off_amount: payable.remaining, remaining: '0.00', status: 'WRITTEN_OFF', write_off_reason: reason, settled_at: now, updated_at: now,
    }).returning('*');
    await this.followOriginTitle(payable, Money.ZERO);
    await new PayableBooks(this.db, this.originatorId).writtenOff(payable, now);
    const written = payableOf(row)!;
    await recordPayableEvent(this.db, written, 'payable.written_off');
    return written;
  }

  /**
   * Locks the payables `operationId` netted and has not given back, oldest first, the order in
   * which creation locks an assignor's open payables. Releasing an operation takes them before it
   * cancels its titles: a title write moves the exposure counters, and creation holds payables
   * while it waits for those counters, so payables always come first (docs/decisions.md,
   * "Exposure counters").
   */
  async lockNetted(operationId: string): Promise<void> {
    const netted = this.scoped('payable_payments').select('payable_id').where({ operation_id: operationId, source: 'OPERATION_NETTING' }).whereNull('reversed_at');
    await this.scoped('assignor_payables').whereIn('id', netted).orderBy('created_at').orderBy('id').select('id').forUpdate();
  }

  /**
   * A cancelled or denied operation gives back the debt it netted: each of its netting lines is
   * marked reversed and its amount returns to the payable (and to the payable's title). Lines
   * already reversed are left alone, so a retry changes nothing.
   */
  async reverseNetting(operationId: string): Promise<void> {
    const lines = (await this.scoped('payable_payments')
      .where({ operation_id: operationId, source: 'OPERATION_NETTING' }).whereNull('reversed_at').forUpdate()).map(lineOf);
    const payables = new PayablesRepository(this.db, this.originatorId);
    for (const line of lines) {
      const payable = (await payables.byId(line.payableId, true))!;
      const paid = Money.of(payable.paidAmount).minus(Money.of(line.amount));
      const remaining = Money.of(payable.remaining).plus(Money.of(line.amount));
      await this.scoped('assignor_payables').where({ id: payable.id }).update({
        paid_amount: paid.toString(), remaining: remaining.toString(), status: paid.isZero() ? 'OPEN' : 'PARTIALLY_PAID', settled_at: null, updated_at: new Date(),
      });
      await this.followOriginTitle(payable, remaining);
      await this.scoped('payable_payments').where({ id: line.id }).update({ reversed_at: new Date() });
    }
  }

  async linesOf(filter: { payableId?: string; discountCreditIds?: string[] }): Promise<PayablePaymentRow[]> {
    const query = this.scoped('payable_payments');
    if (filter.payableId) query.where({ payable_id: filter.payableId });
    if (filter.discountCreditIds) query.whereIn('discount_credit_id', filter.discountCreditIds);
    return (await query.orderBy('created_at').orderBy('id')).map(lineOf);
  }
}
