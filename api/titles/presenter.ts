import type { PayerPaymentResult } from '../../domain/lifecycle-messages';
import type { Schema } from '../openapi/contract-types';

/**
 * A payer's payment as both payment routes answer it (the original one on a replay), as it is kept
 * for replays: the answer adds `idempotent_replay`.
 */
export function presentPayerPayment(operationId: string, result: PayerPaymentResult): Omit<Schema<'PayerPayment'>, 'idempotent_replay'> {
  return {
    id: result.paymentId,
    title_id: result.titleId,
    operation_id: operationId,
    external_id: result.externalId,
    paid_amount_brl: result.paidAmountBrl,
    paid_at: result.paidAt,
    title_status: result.titleStatus,
    remaining: result.remaining,
    late_income_brl: result.lateIncomeBrl ?? '0.00',
    refunded_brl: result.refundedBrl ?? '0.00',
  };
}
