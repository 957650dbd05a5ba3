import { Money } from '../../domain/money';
import { BANK_CASH } from '../../domain/ledger/chart';
import { discountCredit, manualPayable, payablePayment, writeOff } from '../../domain/ledger/payable-postings';
import { LedgerPostingsRepository } from './ledger-postings';
import type { PayableRow } from './payables';
import type { PayablePaymentRow } from './payables-ledger';
import { TenantScopedRepository } from './tenant-scoped';

const refOf = (payable: PayableRow) => ({ payableId: payable.id, assignorId: payable.assignorId });

/**
 * An assignor's payables in the books, in the caller's database transaction. A netting line is
 * booked by its operation (OperationBooks): it waits for the acquisition.
 */
export class PayableBooks extends TenantScopedRepository {
  private readonly postings = new LedgerPostingsRepository(this.db, this.originatorId);

  /** A payable opened by hand that repurchases no title is a charge to the assignor (TitleBooks books a repurchase). */
  async openedByHand(payable: PayableRow, at: Date): Promise<void> {
    await this.postings.post(manualPayable({ payable: refOf(payable), amount: Money.of(payable.amount) }, at));
  }

  /**
   * A debit of the payable: a payment the assignor made, entered through the API with no PIX our
   * PSPs received, books against the bank cash; a discount credit is an expense.
   */
  async debited(payable: PayableRow, line: PayablePaymentRow, at: Date): Promise<void> {
    const amount = Money.of(line.amount);
    if (line.source === 'DISCOUNT_CREDIT') {
      await this.postings.post(discountCredit({ lineId: line.id, creditId: line.discountCreditId!, payable: refOf(payable), amount }, at));
    } else if (line.source !== 'OPERATION_NETTING') {
      await this.postings.post(payablePayment({ lineId: line.id, payable: refOf(payable), amount, cash: BANK_CASH, externalId: line.externalId ?? undefined }, at));
    }
  }

  async writtenOff(payable: PayableRow, at: Date): Promise<void> {
    await this.postings.post(writeOff({ payable: refOf(payable), amount: Money.of(payable.remaining) }, at));
  }
}
