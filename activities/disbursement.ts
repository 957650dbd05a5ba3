import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { Money } from '../domain/money';
import { moveOperation } from './operations';
import type { DisbursementOutcome } from '../domain/lifecycle-messages';
import type { PixDestination, PixPayment, PixProvider, PixStatus } from './pix-client';
import { PixError } from './provider-errors';

export interface DisbursementActivityDeps {
  db: Knex;
  pix: PixProvider;
  /** Where the provider calls back when a payment settles (the api's internal route). */
  pixCallbackUrl: string;
}


/** DESIGN.md §4: the key is derived from the operation and the attempt, so a retried call pays once. */
export const disbursementKey = (operationId: string, attempt: number) => `operation-${operationId}-pix-${attempt}`;

function destinationOf(assignor: Record<string, string | null>): PixDestination {
  return assignor.disbursement_method === 'bank_account'
    ? { kind: 'bank_account', code: assignor.bank_code!, agency: assignor.bank_agency!, account: assignor.bank_account!, type: (assignor.bank_account_type ?? 'CC') as 'CC' | 'SA' | 'CP' }
    : { kind: 'pix_key', key: assignor.pix_key_document ?? assignor.document! };
}

export function createDisbursementActivities({ db, pix, pixCallbackUrl }: DisbursementActivityDeps) {
  async function record(operationId: string, attempt: number) {
    return db('disbursements').where({ operation_id: operationId, attempt }).first();
  }

  async function settle(id: string, status: PixStatus, settledAmount: string | null, reason: string | null): Promise<void> {
    await db('disbursements').where({ id }).update({
      status, settled_amount: settledAmount, rejection_reason: reason, updated_at: new Date(),
      settled_at: status === 'PENDING' ? null : new Date(),
    });
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
      const op = await db('operations').where({ id: operationId }).first();
      const key = disbursementKey(operationId, attempt);
      await db('disbursements').insert({
        id: uuidv7(), originator_id: op.originator_id, operation_id: operationId, attempt, idempotency_key: key,
        amount: op.opr_net_present_liquid_value, status: 'PENDING',
      }).onConflict(['operation_id', 'attempt']).ignore();
      const row = await record(operationId, attempt);
      if (row.status !== 'PENDING') return { status: row.status, reason: row.rejection_reason };
      if (Money.of(row.amount).isZero()) {
        // Debt netting consumed the whole liquid value: nothing to send, nothing to wait for.
        await settle(row.id, 'SETTLED', '0.00', null);
        return { status: 'SETTLED', reason: null };
      }
      const assignor = await db('assignors').where({ id: op.assignor_id }).first();
      try {
        const payment = await pix.createPayment(key, row.amount, {
          name: assignor.name, document: assignor.pix_key_document ?? assignor.document, email: assignor.email, destination: destinationOf(assignor),
        }, pixCallbackUrl);
        await db('disbursements').where({ id: row.id }).update({ provider_payment_id: payment.paymentId });
        if (payment.status !== 'PENDING') await settle(row.id, payment.status, payment.settledAmount, payment.rejectionReason);
        return { status: payment.status, reason: payment.rejectionReason };
      } catch (err) {
        if (err instanceof PixError && err.code === 'pix_rejected') {
          await settle(row.id, 'REJECTED', '0.00', err.message);
          return { status: 'REJECTED', reason: 'pix_rejected' };
        }
        throw err;
      }
    },

    async getDisbursement({ operationId, attempt }: { operationId: string; attempt: number }): Promise<DisbursementOutcome> {
      const row = await record(operationId, attempt);
      if (row.status !== 'PENDING' || !row.provider_payment_id) return { status: row.status, reason: row.rejection_reason };
      const payment = await paymentOrReconciled(row.provider_payment_id, row.idempotency_key);
      if (!payment) {
        await settle(row.id, 'REJECTED', '0.00', 'pix_payment_not_found');
        return { status: 'REJECTED', reason: 'pix_payment_not_found' };
      }
      if (payment.status !== 'PENDING') await settle(row.id, payment.status, payment.settledAmount, payment.rejectionReason);
      return { status: payment.status, reason: payment.rejectionReason ?? (payment.status === 'REJECTED' ? 'pix_rejected' : null) };
    },

    /**
     * Reconciliation: the settled amount must be exactly the PIX amount of the operation. A
     * mismatch is not PAID: it goes to a human like a refusal.
     */
    async reconcileAndMarkPaid({ operationId, workflowId, attempt }: { operationId: string; workflowId: string; attempt: number }): Promise<DisbursementOutcome> {
      const row = await record(operationId, attempt);
      const op = await db('operations').where({ id: operationId }).first('opr_net_present_liquid_value', 'disbursement_method');
      if (!Money.of(row.settled_amount ?? '0').equals(Money.of(op.opr_net_present_liquid_value))) {
        return { status: 'REJECTED', reason: 'settlement_amount_mismatch' };
      }
      await moveOperation(db, {
        operationId, workflowId, to: 'PAID',
        data: { opr_net_present_liquid_value: op.opr_net_present_liquid_value, paid_amount: row.settled_amount, paid_at: (row.settled_at ?? new Date()).toISOString(), disbursement_method: op.disbursement_method },
      });
      return { status: 'SETTLED', reason: null };
    },
  };
}
