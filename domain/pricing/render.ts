import type { Dec } from '../money';
import { renderMoney } from '../vocabulary';
import { FEE_HIERARCHY } from './fees';
import type { PricedOperation, PricedReceivable } from './price-operation';

const rate = (value: Dec) => value.toNumber();

/**
 * One priced receivable as responses show it, every value under both names. Simulation returns
 * it as is; a title of direct creation adds its own fields (`id`, `status`, `is_partial`).
 */
export function renderPricedReceivable(p: PricedReceivable): Record<string, unknown> {
  const r = p.input;
  // Built by assignment, as the operation's figures below.
  const body = renderMoney({
    gross_future_value: r.grossFutureValue,
    net_future_value: r.netFutureValue,
    requested_net_future_value: r.requestedNetFutureValue,
    present_value_discount: p.discount,
    net_present_liquid_value: p.liquid,
  }, {
    external_id: r.externalId,
    identifier: r.identifier,
    backing_type: r.backingType,
    payer_name: r.payerName,
    payer_document: r.payerDocument,
    due_date: r.dueDate,
  } as Record<string, unknown>);
  body.gross_future_value_deductions = r.grossFutureValueDeductions?.toString() ?? null;
  body.requested_net_future_value_percent = r.requestedPercent ? rate(r.requestedPercent) : null;
  body.days_to_due = p.daysToDue;
  body.floating_days = p.floatingDays;
  body.days_advanced = p.daysAdvanced;
  body.qty_days_advanced = p.daysAdvanced;
  body.monthly_rate_pct = rate(p.monthlyRatePct);
  body.discount_pct = rate(p.discountPct);
  body.fixed_discount_brl = p.fixedDiscountBrl.toString();
  body.fee_source = p.feeSource;
  return body;
}

/**
 * The operation's figures, every value under both names, added to `head` (after what it holds);
 * `other_debt_discounts` only when priced with them. Built by assignment, not as a literal with
 * the money spread in: V8 copies a spread property by property, a tenth of a simulation's CPU.
 */
export function renderPricedOperation(op: PricedOperation, head: Record<string, unknown> = {}): Record<string, unknown> {
  const body = renderMoney({
    opr_gross_future_value: op.grossFutureValue,
    opr_net_future_value: op.netFutureValue,
    opr_present_value_discount: op.presentValueDiscount,
    opr_net_present_liquid_value: op.netPresentLiquidValue,
  }, head);
  body.opr_requested_net_future_value = op.requestedNetFutureValue.toString();
  if (op.otherDebtDiscounts) {
    body.opr_net_liquid_value = op.netLiquidValue.toString();
    body.other_debt_discounts = op.otherDebtDiscounts.toString();
  }
  body.floating_days = op.floatingDays;
  body.average_days_in_advance = op.averageDaysInAdvance;
  body.weighted_avg_days = rate(op.weightedAvgDays);
  body.cet_monthly_pct = rate(op.cetMonthlyPct);
  body.cet_annual_pct = rate(op.cetAnnualPct);
  body.fee_hierarchy = FEE_HIERARCHY;
  body.assignor_defaults_used = op.assignorDefaultsUsed;
  body.payer_defaults_used = op.payerDefaultsUsed;
  return body;
}
