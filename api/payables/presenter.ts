import type { DiscountCreditRow } from '../../db/repositories/credits';
import type { PayablePaymentRow } from '../../db/repositories/payables-ledger';
import type { PayableRow } from '../../db/repositories/payables';
import type { PayerPaymentResult } from '../../domain/lifecycle-messages';

const timestamp = (value: Date | null) => (value === null ? null : value.toISOString());

export function presentPayable(row: PayableRow) {
  return {
    id: row.id,
    assignor_id: row.assignor_id,
    origin: row.origin,
    origin_title_id: row.origin_title_id,
    reason: row.reason,
    amount_brl: row.amount,
    paid_amount_brl: row.paid_amount,
    remaining: row.remaining,
    written_off_amount_brl: row.written_off_amount,
    status: row.status,
    due_date: row.due_date,
    write_off_reason: row.write_off_reason,
    settled_at: timestamp(row.settled_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** One line of a payable's ledger; `remaining` is the payable's balance right after it. */
export function presentPayablePayment(row: PayablePaymentRow) {
  return {
    id: row.id,
    payable_id: row.payable_id,
    source: row.source,
    paid_amount_brl: row.amount,
    remaining: row.remaining_after,
    external_id: row.external_id,
    operation_id: row.operation_id,
    discount_credit_id: row.discount_credit_id,
    reversed_at: timestamp(row.reversed_at),
    created_at: row.created_at.toISOString(),
  };
}

export function presentDiscountCredit(row: DiscountCreditRow, lines: PayablePaymentRow[]) {
  return {
    id: row.id,
    assignor_id: row.assignor_id,
    amount_brl: row.amount,
    reason: row.reason,
    external_id: row.external_id,
    applied_to: lines.filter((line) => line.discount_credit_id === row.id)
      .map((line) => ({ payable_id: line.payable_id, amount_brl: line.amount, remaining: line.remaining_after })),
    created_at: row.created_at.toISOString(),
  };
}

export function presentPayerPayment(operationId: string, result: PayerPaymentResult) {
  return {
    id: result.paymentId,
    title_id: result.titleId,
    operation_id: operationId,
    external_id: result.externalId,
    paid_amount_brl: result.paidAmountBrl,
    paid_at: result.paidAt,
    title_status: result.titleStatus,
    remaining: result.remaining,
  };
}
