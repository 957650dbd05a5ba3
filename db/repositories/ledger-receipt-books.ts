import { Money } from '../../domain/money';
import { pspCash } from '../../domain/ledger/chart';
import { CollectedTitle, payerPayment, refund, unidentifiedReceipt } from '../../domain/ledger/collection-postings';
import { refundIdOf } from '../../domain/collection/txid';
import { LedgerPostingsRepository } from './ledger-postings';
import { ReceivedPixRepository } from './received-pix';
import { TenantScopedRepository } from './tenant-scoped';

/**
 * Each received PIX in the books, in the caller's database transaction and under the PIX's row
 * lock: a webhook, a sweep and the title's payment racing over one PIX book it once, wherever it
 * went (a title's payment, back to the payer whole, suspense).
 */
export class ReceiptBooks extends TenantScopedRepository {
  private readonly postings = new LedgerPostingsRepository(this.db, this.originatorId);
  private readonly receipts = new ReceivedPixRepository(this.db);

  /** Gone nowhere yet (no charge matches it, or its title refused it for now): it waits in suspense. */
  async heldInSuspense(endToEndId: string): Promise<void> {
    const receipt = await this.receipts.lock(endToEndId);
    if (!receipt || receipt.appliedTo !== null) return;
    await this.postings.post(unidentifiedReceipt({ receiptId: receipt.id, amount: Money.of(receipt.amountBrl), endToEndId }, receipt.paidAt));
    await this.receipts.markApplied(endToEndId, 'suspense');
  }

  /** Applied to a title's payment: true when it was waiting in suspense, which the payment then takes it out of. */
  async appliedToPayment(endToEndId: string, paymentId: string): Promise<boolean> {
    const receipt = await this.receipts.lock(endToEndId);
    if (!receipt) return false;
    await this.receipts.markApplied(endToEndId, 'title', paymentId);
    return receipt.appliedTo === 'suspense';
  }

  /**
   * A PIX its title takes nothing of (closed meanwhile) goes back whole: received as the payer's
   * overpayment, or taken from suspense where it waited, and refunded, pending until the PSP settles it.
   */
  async refundedWhole(endToEndId: string, title: CollectedTitle, at: Date): Promise<void> {
    const receipt = await this.receipts.lock(endToEndId);
    if (!receipt || receipt.appliedTo === 'refunded' || receipt.appliedTo === 'title') return;
    const amount = Money.of(receipt.amountBrl);
    const fromSuspense = receipt.appliedTo === 'suspense';
    if (!fromSuspense) {
      await this.postings.post(payerPayment({
        paymentId: receipt.id, title, cash: pspCash('collection'), received: amount, applied: Money.ZERO, lateCharges: Money.ZERO, excess: amount,
        closesWithUnearned: Money.ZERO, endToEndId,
      }, receipt.paidAt));
    }
    await this.postings.post(refund({ refundId: refundIdOf(endToEndId), title, amount, endToEndId, fromSuspense }, at));
    await this.receipts.markApplied(endToEndId, 'refunded');
  }
}
