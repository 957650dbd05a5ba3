import type { Knex } from 'knex';
import { Money } from '../domain/money';
import { moveOperation } from './operations';
import type { DisbursementOutcome } from '../domain/lifecycle-messages';
import { disbursementKey } from '../domain/pix-transfer';
import { PIX_PAYMENT_NOT_FOUND, PIX_REJECTED, SETTLEMENT_AMOUNT_MISMATCH } from '../domain/pix-retry';
import { Disbursement, DisbursementsRepository, PixOrder } from '../db/repositories/disbursements';
import { OperationBooks } from '../db/repositories/ledger-operation-books';
import type { PixPayment, PixProvider } from '../providers/pix-client';
import { PixError } from '../providers/provider-errors';
import { pixDisbursements } from '../platform/telemetry/metrics';

export interface DisbursementActivityDeps {
  db: Knex;
  pix: PixProvider;
  /** Where the provider calls back when a payment settles (the api's internal route). */
  pixCallbackUrl: string;
}

export function createDisbursementActivities({ db, pix, pixCallbackUrl }: DisbursementActivityDeps) {
  const disbursements = new DisbursementsRepository(db);

  /**
   * Settles the attempt's row with its payout's ledger transaction, and counts the outcome, once
   * however often a retried activity gets here.
   */
  async function settle(row: Disbursement, status: PixPayment['status'], settledAmount: string | null, reason: string | null): Promise<void> {
    if (status === 'PENDING') return;
    const settled = await db.transaction(async (trx) => {
      if (!await new DisbursementsRepository(trx).settle(row.id, status, settledAmount, reason)) return false;
      await new OperationBooks(trx, row.originatorId).payoutResolved(row, status, settledAmount, new Date());
      return true;
    });
    if (settled) pixDisbursements.inc({ outcome: status.toLowerCase() });
  }

  /** The attempt's row, created with its pending payout on the first call, and whom it pays. */
  async function reserve(operationId: string, attempt: number): Promise<{ row: Disbursement; order: PixOrder }> {
    const order = await disbursements.orderOf(operationId);
    const row = await db.transaction(async (trx) => {
      const reserved = await new DisbursementsRepository(trx).reserve(operationId, attempt, disbursementKey(operationId, attempt), order);
      if (reserved.status === 'PENDING') await new OperationBooks(trx, reserved.originatorId).payoutOrdered(reserved, new Date());
      return reserved;
    });
    return { row, order };
  }

  /**
   * The payment as the provider has it. One it no longer knows by id (404) is looked up by our
   * idempotency key; found under neither, it does not exist (null) and nothing was paid.
   */
  async function paymentOrReconciled(paymentId: string, idempotencyKey: string): Promise<PixPayment | null> {
    try {
      return await pix.getPayment(paymentId);
    } catch (err) {
      if (!(err instanceof PixError && err.providerStatus === 404)) throw err;
      return (await pix.paymentsWithKey(idempotencyKey))[0] ?? null;
    }
  }

  return {
    /** Orders the PIX of `opr_net_present_liquid_value` to the assignor's primary account. */
    async startDisbursement({ operationId, attempt }: { operationId: string; attempt: number }): Promise<DisbursementOutcome> {
      const { row, order } = await reserve(operationId, attempt);
      if (row.status !== 'PENDING') return { status: row.status, reason: row.rejectionReason };
      if (Money.of(row.amount).isZero()) {
        // Debt netting consumed the whole liquid value: nothing to send, nothing to wait for.
        await settle(row, 'SETTLED', '0.00', null);
        return { status: 'SETTLED', reason: null };
      }
      try {
        const payment = await pix.createPayment(row.idempotencyKey, row.amount, order.recipient, pixCallbackUrl);
        if (await disbursements.ordered(row.id, payment.paymentId)) pixDisbursements.inc({ outcome: 'ordered' });
        await settle(row, payment.status, payment.settledAmount, payment.rejectionReason);
        return { status: payment.status, reason: payment.rejectionReason };
      } catch (err) {
        if (err instanceof PixError && err.code === 'pix_rejected') {
          await settle(row, 'REJECTED', '0.00', err.message);
          return { status: 'REJECTED', reason: PIX_REJECTED };
        }
        throw err;
      }
    },

    async getDisbursement({ operationId, attempt }: { operationId: string; attempt: number }): Promise<DisbursementOutcome> {
      const row = (await disbursements.byAttempt(operationId, attempt))!;
      if (row.status !== 'PENDING' || !row.providerPaymentId) return { status: row.status, reason: row.rejectionReason };
      const payment = await paymentOrReconciled(row.providerPaymentId, row.idempotencyKey);
      if (!payment) {
        await settle(row, 'REJECTED', '0.00', PIX_PAYMENT_NOT_FOUND);
        return { status: 'REJECTED', reason: PIX_PAYMENT_NOT_FOUND };
      }
      await settle(row, payment.status, payment.settledAmount, payment.rejectionReason);
      return { status: payment.status, reason: payment.rejectionReason ?? (payment.status === 'REJECTED' ? PIX_REJECTED : null) };
    },

    /**
     * Reconciliation: the settled amount must be exactly the PIX amount of the operation. A
     * mismatch is not PAID: it goes to a human like a refusal.
     */
    async reconcileAndMarkPaid({ operationId, workflowId, attempt, at }: { operationId: string; workflowId: string; attempt: number; at?: string }): Promise<DisbursementOutcome> {
      const row = (await disbursements.byAttempt(operationId, attempt))!;
      const order = await disbursements.amountOf(operationId);
      if (!Money.of(row.settledAmount ?? '0').equals(Money.of(order.liquidValue))) {
        return { status: 'REJECTED', reason: SETTLEMENT_AMOUNT_MISMATCH };
      }
      // On a test clock the money arrives at the clock's time, like every other move of the operation.
      const paidAt = at ?? (row.settledAt ?? new Date()).toISOString();
      await moveOperation(db, {
        operationId, workflowId, to: 'PAID', at,
        data: { opr_net_present_liquid_value: order.liquidValue, paid_amount: row.settledAmount, paid_at: paidAt, disbursement_method: order.disbursementMethod },
      });
      return { status: 'SETTLED', reason: null };
    },
  };
}
