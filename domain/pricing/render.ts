import type { Dec } from '../money';
import { CanonicalMoney, MONEY_NAMES, renderMoney } from '../vocabulary';
import { FEE_HIERARCHY } from './fees';
import type { PricedOperation, PricedReceivable } from './price-operation';

const rate = (value: Dec) => value.toNumber();

/** The names of `C` and of their deprecated twins (MONEY_NAMES), each a money string. */
type MoneyFields<C extends CanonicalMoney> = { [K in C | (typeof MONEY_NAMES)[C][number]]: string };

/**
 * One priced receivable as responses show it, every value under both names. Simulation returns
 * it as is; a title of direct creation adds its own fields (`id`, `status`, `is_partial`).
 * One literal, the deprecated names written out: V8 then allocates the object once, where adding
 * the names one by one (renderMoney) grew and copied its property store several times, kilobytes
 * of garbage per receivable. The type refuses the literal if MONEY_NAMES gains a name it lacks.
 */
export function renderPricedReceivable(p: PricedReceivable): Record<string, unknown> {
  const r = p.input;
  const gross = r.grossFutureValue.toString();
  const net = r.netFutureValue.toString();
  const requested = r.requestedNetFutureValue.toString();
  const discount = p.discount.toString();
  const liquid = p.liquid.toString();
  return {
    external_id: r.externalId,
    identifier: r.identifier,
    backing_type: r.backingType,
    payer_name: r.payerName,
    payer_document: r.payerDocument,
    due_date: r.dueDate,
    gross_future_value: gross,
    gross_face_value: gross,
    net_future_value: net,
    net_face_value: net,
    requested_net_future_value: requested,
    requested_advance_value: requested,
    present_value_discount: discount,
    discounted_value: discount,
    discount_brl: discount,
    net_present_liquid_value: liquid,
    liquid_value: liquid,
    gross_future_value_deductions: r.grossFutureValueDeductions?.toString() ?? null,
    requested_net_future_value_percent: r.requestedPercent ? rate(r.requestedPercent) : null,
    days_to_due: p.daysToDue,
    floating_days: p.floatingDays,
    days_advanced: p.daysAdvanced,
    qty_days_advanced: p.daysAdvanced,
    monthly_rate_pct: rate(p.monthlyRatePct),
    discount_pct: rate(p.discountPct),
    fixed_discount_brl: p.fixedDiscountBrl.toString(),
    fee_source: p.feeSource,
  } satisfies MoneyFields<'gross_future_value' | 'net_future_value' | 'requested_net_future_value' | 'present_value_discount' | 'net_present_liquid_value'> & Record<string, unknown>;
}

/**
 * The operation's figures, every value under both names, added to `head` (after what it holds);
 * `other_debt_discounts` only when priced with them. Built by assignment, not as a literal with
 * the money spread in: V8 copies a spread property by property, 17 µs per simulation.
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
