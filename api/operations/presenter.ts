import { renderMoney } from '../../domain/vocabulary';
import type { OperationRow, TitleRow } from '../../db/repositories/operations';

const rate = (value: string | null) => (value === null ? null : Number(value));

export function presentTitle(t: TitleRow) {
  return {
    id: t.id,
    operation_id: t.operation_id,
    external_id: t.external_id,
    identifier: t.identifier,
    backing_type: t.backing_type,
    status: t.status,
    payer_name: t.payer_name,
    payer_document: t.payer_document,
    ...renderMoney({
      gross_future_value: t.gross_future_value,
      net_future_value: t.net_future_value,
      requested_net_future_value: t.requested_net_future_value,
      present_value_discount: t.present_value_discount,
      net_present_liquid_value: t.net_present_liquid_value,
    }),
    outstanding_balance: t.outstanding_balance,
    paid_amount: t.paid_amount,
    due_date: t.due_date,
    qty_days_advanced: t.qty_days_advanced,
    fee_source: t.fee_source,
    monthly_rate_pct: rate(t.monthly_rate_pct),
    discount_pct: rate(t.discount_pct),
    fixed_discount_brl: t.fixed_discount_brl,
    is_partial: t.is_partial,
    stock_item_id: t.stock_item_id,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

/**
 * Creation answers differ by channel, as the contract says: direct creation fills `status` and
 * leaves `lifecycle_status` and `created_at` null; the stock path and every read do the opposite,
 * and the stock path's `disbursement_method` is null.
 */
export type OperationView = 'direct_creation' | 'stock_creation' | 'read';

export function presentOperation(op: OperationRow, titles: TitleRow[], view: OperationView) {
  const direct = view === 'direct_creation';
  return {
    id: op.id,
    display_number: op.display_number,
    status: direct ? op.lifecycle_status : null,
    lifecycle_status: direct ? null : op.lifecycle_status,
    assignor_id: op.assignor_id,
    ...renderMoney({
      opr_gross_future_value: op.opr_gross_future_value,
      opr_net_future_value: op.opr_net_future_value,
      opr_present_value_discount: op.opr_present_value_discount,
      opr_net_present_liquid_value: op.opr_net_present_liquid_value,
    }),
    opr_requested_net_future_value: op.opr_requested_net_future_value,
    opr_net_liquid_value: op.opr_net_liquid_value,
    other_debt_discounts: op.other_debt_discounts,
    average_days_in_advance: op.average_days_in_advance,
    weighted_avg_days: Number(op.weighted_avg_days),
    floating_days: op.floating_days,
    cet_monthly_pct: rate(op.cet_monthly_pct),
    cet_annual_pct: rate(op.cet_annual_pct),
    product_id: op.product_id,
    policy_id: op.policy_id,
    needs_backoffice_approval: op.needs_backoffice_approval,
    embedded_signature: op.embedded_signature,
    created_at: direct ? null : op.created_at.toISOString(),
    updated_at: op.updated_at.toISOString(),
    titles: titles.map(presentTitle),
    fee_hierarchy: op.fee_hierarchy,
    has_partial_anticipations: op.has_partial_anticipations,
    contract_details: { type: op.contract_type, signature_date: null, signer_token: null },
    signers_count: op.signers_count,
    disbursement_method: view === 'stock_creation' ? null : op.disbursement_method,
  };
}
