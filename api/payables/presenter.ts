import type { DiscountCreditRow } from '../../db/repositories/credits';
import type { PayablePaymentRow } from '../../db/repositories/payables-ledger';
import type { PayableRow } from '../../db/repositories/payables';
import type { Schema } from '../openapi/contract-types';

const timestamp = (value: Date | null) => (value === null ? null : value.toISOString());

export function presentPayable(row: PayableRow): Schema<'AssignorPayable'> {
  return {
    id: row.id,
    assignor_id: row.assignorId,
    origin: row.origin,
    origin_title_id: row.originTitleId,
    reason: row.reason,
    amount_brl: row.amount,
    paid_amount_brl: row.paidAmount,
    remaining: row.remaining,
    written_off_amount_brl: row.writtenOffAmount,
    status: row.status,
    due_date: row.dueDate,
    write_off_reason: row.writeOffReason,
    settled_at: timestamp(row.settledAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** One line of a payable's ledger; `remaining` is the payable's balance right after it. */
export function presentPayablePayment(row: PayablePaymentRow): Schema<'PayablePayment'> {
  return {
    id: row.id,
    payable_id: row.payableId,
    source: row.source,
    paid_amount_brl: row.amount,
    remaining: row.remainingAfter,
    external_id: row.externalId,
    operation_id: row.operationId,
    discount_credit_id: row.discountCreditId,
    reversed_at: timestamp(row.reversedAt),
    created_at: row.createdAt.toISOString(),
  };
}

export function presentDiscountCredit(row: DiscountCreditRow, lines: PayablePaymentRow[]): Schema<'DiscountCredit'> {
  return {
    id: row.id,
    assignor_id: row.assignorId,
    amount_brl: row.amount,
    reason: row.reason,
    external_id: row.externalId,
    applied_to: lines.filter((line) => line.discountCreditId === row.id)
      .map((line) => ({ payable_id: line.payableId, amount_brl: line.amount, remaining: line.remainingAfter })),
    created_at: row.createdAt.toISOString(),
  };
}
