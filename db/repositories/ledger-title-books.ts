import { Money } from '../../domain/money';
import { accountKey, BANK_CASH, pspCash } from '../../domain/ledger/chart';
import { CollectedTitle, overdueRecourse, payerPayment, refund, refundKey, SUSPENSE } from '../../domain/ledger/collection-postings';
import { refundIdOf } from '../../domain/collection/txid';
import { manualPayable, PayableRef } from '../../domain/ledger/payable-postings';
import { LedgerBalancesRepository } from './ledger-balances';
import { LedgerPostingsRepository } from './ledger-postings';
import { ReceiptBooks } from './ledger-receipt-books';
import { TenantScopedRepository } from './tenant-scoped';
import type { TitlePaymentRow } from './title-payments';

/** A title's money after its operation is PAID: payments, refunds, recourse. In the caller's database transaction. */
export class TitleBooks extends TenantScopedRepository {
  private readonly postings = new LedgerPostingsRepository(this.db, this.originatorId);

  /** The discount of the title not yet earned, which closing it recognises at once. */
  private async unearnedOf(title: CollectedTitle): Promise<Money> {
    const key = accountKey({ kind: 'unearned_discount', ...title });
    const [account] = await new LedgerBalancesRepository(this.db, this.originatorId).of((query) => query.where('a.account_key', key), null);
    return account?.posted ?? Money.ZERO;
  }

  /**
   * A payer's payment as applied: by PIX to the collection PSP's cash (or out of suspense, where the
   * PIX waited; its excess refunded, pending until the PSP answers), otherwise to the bank cash staff
   * entered it against.
   */
  async paid(title: CollectedTitle, payment: TitlePaymentRow): Promise<void> {
    const byPix = payment.channel === 'PIX';
    const excess = Money.of(payment.refundedBrl);
    const fromSuspense = byPix && await new ReceiptBooks(this.db, this.originatorId).appliedToPayment(payment.externalId, payment.id);
    await this.postings.post(payerPayment({
      paymentId: payment.id, title, cash: fromSuspense ? SUSPENSE : byPix ? pspCash('collection') : BANK_CASH,
      received: Money.of(payment.receivedBrl ?? payment.amount), applied: Money.of(payment.amount),
      lateCharges: Money.of(payment.lateIncomeBrl), excess,
      closesWithUnearned: Money.of(payment.remainingAfter).isZero() ? await this.unearnedOf(title) : Money.ZERO,
      ...(byPix ? { endToEndId: payment.externalId } : { externalId: payment.externalId }),
    }, payment.paidAt));
    if (byPix && !excess.isZero()) {
      await this.postings.post(refund({ refundId: refundIdOf(payment.externalId), title, amount: excess, endToEndId: payment.externalId }, payment.paidAt));
    }
  }

  /** The PSP took the refund of a PIX's excess. */
  async refunded(endToEndId: string, at: Date): Promise<void> {
    await this.postings.resolve(refundKey(refundIdOf(endToEndId)), 'posted', at);
  }

  /** Repurchased by the payable opened by hand: the open balance moves to it, the unearned rest is recognised, any excess is a charge. */
  async repurchased(title: CollectedTitle, payable: PayableRef, amount: Money, open: Money, at: Date): Promise<void> {
    await this.postings.post(manualPayable({ payable, amount, repurchased: { ...title, open, unearnedLeft: await this.unearnedOf(title) } }, at));
  }

  /** Overdue with recourse: the open balance moves to the assignor's payable; the unearned rest is recognised. */
  async overdue(title: CollectedTitle, payableId: string, open: Money, at: Date): Promise<void> {
    await this.postings.post(overdueRecourse({ title, payableId, open, unearnedLeft: await this.unearnedOf(title) }, at));
  }
}
