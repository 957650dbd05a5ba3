import { Money } from '../../domain/money';
import { acquisition, netting, payout, payoutDifference, PayoutAttempt } from '../../domain/ledger/disbursement-postings';
import { reversal } from '../../domain/ledger/transaction';
import type { PixStatus } from '../../domain/pix-transfer';
import type { Disbursement } from './disbursements';
import { LedgerPostingsRepository } from './ledger-postings';
import { TenantScopedRepository } from './tenant-scoped';

/**
 * An operation's money, from creation to payout, as ledger transactions. Each method runs in the
 * caller's database transaction, the one that moves the money.
 */
export class OperationBooks extends TenantScopedRepository {
  private readonly postings = new LedgerPostingsRepository(this.db, this.originatorId);

  private async keysOf(operationId: string, kinds: string[], status: string): Promise<string[]> {
    const rows: { idempotency_key: string }[] = await this.scoped('ledger_transactions')
      .where({ operation_id: operationId, status }).whereIn('kind', kinds).orderBy('id').select('idempotency_key');
    return rows.map((row) => row.idempotency_key);
  }

  /** At creation: each payable line the price settles, pending until the acquisition. */
  async nettingDecided(operationId: string, assignorId: string, lines: { id: string; payableId: string; amount: string }[], at: Date): Promise<void> {
    await this.postings.postAll(lines.map((line) => netting({ lineId: line.id, operationId, assignorId, payableId: line.payableId, amount: Money.of(line.amount) }, at)));
  }

  /** SIGNED → DISBURSING: each title bought, and the netting decided at creation posted with it. */
  async acquired(operationId: string, at: Date): Promise<void> {
    const titles: Record<string, string>[] = await this.scoped('titles').where({ operation_id: operationId }).orderBy('id')
      .select('id', 'assignor_id', 'requested_net_future_value', 'present_value_discount');
    await this.postings.postAll(titles.map((title) => acquisition({
      titleId: title.id, operationId, assignorId: title.assignor_id,
      requested: Money.of(title.requested_net_future_value), discount: Money.of(title.present_value_discount),
    }, at)));
    for (const key of await this.keysOf(operationId, ['netting'], 'pending')) await this.postings.resolve(key, 'posted', at);
  }

  /** Denied or cancelled: pending netting voided, and every acquisition or netting that posted reversed. */
  async released(operationId: string, at: Date): Promise<void> {
    for (const key of await this.keysOf(operationId, ['netting'], 'pending')) await this.postings.resolve(key, 'voided', at);
    for (const key of await this.keysOf(operationId, ['acquisition', 'netting'], 'posted')) {
      const original = await this.postings.load(key);
      if (original) await this.postings.post(reversal(original, at));
    }
  }

  private async attemptOf(row: Disbursement): Promise<PayoutAttempt> {
    const { assignor_id: assignorId } = await this.scoped('operations').where({ id: row.operationId }).first('assignor_id');
    return { disbursementId: row.id, operationId: row.operationId, assignorId, amount: Money.of(row.amount) };
  }

  /** A PIX ordered: pending until the PSP settles or refuses it. An operation netted to zero sends none. */
  async payoutOrdered(row: Disbursement, at: Date): Promise<void> {
    if (Money.of(row.amount).isZero()) return;
    await this.postings.post(payout(await this.attemptOf(row), at));
  }

  /** The PSP's final word: posted (with any difference to suspense) or voided. */
  async payoutResolved(row: Disbursement, status: Exclude<PixStatus, 'PENDING'>, settledAmount: string | null, at: Date): Promise<void> {
    if (Money.of(row.amount).isZero()) return;
    const attempt = await this.attemptOf(row);
    const key = payout(attempt, at).idempotencyKey;
    if (status === 'REJECTED') {
      await this.postings.resolve(key, 'voided', at);
      return;
    }
    await this.postings.resolve(key, 'posted', at);
    const difference = payoutDifference(attempt, Money.of(settledAmount ?? row.amount), at);
    if (difference) await this.postings.post(difference);
  }
}
