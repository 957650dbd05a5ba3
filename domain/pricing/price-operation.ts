import { RuleViolation } from '../errors';
import { Dec, Money } from '../money';
import { dayNumber } from './business-date';
import { Cet, cet, cetFinding, CetFinding } from './cet';
import { Discount, discountByRates, discountToLiquid, spreadToTarget } from './discount';
import { FeeSource, OperationFees, resolveFees, ResolvedFees } from './fees';
import type { FeeDefaults, PricingPolicy } from './policy';
import type { ReceivableInput } from './receivables';

export interface PricingInput {
  receivables: readonly ReceivableInput[];
  fees: OperationFees | null;
  policy: PricingPolicy;
  assignorDefaults: FeeDefaults | null;
  /** Keyed by the payer document as stored (digits). */
  payerDefaultsByDocument: ReadonlyMap<string, FeeDefaults>;
  /** `YYYY-MM-DD` in America/Sao_Paulo: see `businessDate(now)`. */
  businessDate: string;
  /** Open assignor payables settled from the PIX amount (direct creation); never more than Σ liquid. */
  otherDebtDiscounts?: Money;
}

export interface PricedReceivable extends Discount {
  input: ReceivableInput;
  daysToDue: number;
  floatingDays: number;
  /** `qty_days_advanced`: days to due plus floating days. */
  daysAdvanced: number;
  feeSource: FeeSource;
  liquid: Money;
}

export interface PricedOperation {
  businessDate: string;
  receivables: PricedReceivable[];
  grossFutureValue: Money;
  netFutureValue: Money;
  requestedNetFutureValue: Money;
  presentValueDiscount: Money;
  /** Σ liquid before other debts (`opr_net_liquid_value`). */
  netLiquidValue: Money;
  /** Null when the caller gave none (simulation). */
  otherDebtDiscounts: Money | null;
  /** The PIX amount (`opr_net_present_liquid_value`). */
  netPresentLiquidValue: Money;
  /** The operation level's floating days (operation > assignor > policy). */
  floatingDays: number;
  averageDaysInAdvance: number;
  weightedAvgDays: Dec;
  cetMonthlyPct: Dec;
  cetAnnualPct: Dec;
  assignorDefaultsUsed: boolean;
  payerDefaultsUsed: boolean;
  /** Advisory in simulation; creation refuses with the first one. */
  cetFindings: CetFinding[];
}

/**
 * A cost whose annual figure no JSON number (a double) holds, as a liquid value of cents for a
 * requested value of thousands over a day gives: refused on every route, the simulation included,
 * rather than answered with a null the document does not allow.
 */
function unwritableCet(cost: Cet): RuleViolation {
  return new RuleViolation({
    code: 'CET_OUT_OF_BOUNDS', scope: 'operation',
    message: `Monthly CET ${cost.monthlyPct.toSignificantDigits(6).toString()}% compounds to an annual CET beyond what a number can express`,
  });
}

function exceedsBase(priced: readonly PricedReceivable[]): RuleViolation | null {
  const offenders = priced.filter((p) => p.discount.gte(p.input.requestedNetFutureValue));
  if (offenders.length === 0) return null;
  return new RuleViolation({
    code: 'RECEIVABLE_DISCOUNT_EXCEEDS_BASE',
    message: `The computed discount is at or above the requested value of ${offenders.length} receivable(s)`,
    receivables: offenders.map((p) => ({
      external_id: p.input.externalId,
      requested_advance_value: p.input.requestedNetFutureValue.toString(),
      discounted_value: p.discount.toString(),
    })),
  });
}

function discounts(input: PricingInput, resolved: ResolvedFees[], days: number[]): Discount[] {
  const requested = input.receivables.map((r) => r.requestedNetFutureValue);
  const target = input.fees?.totalLiquidValueBrl ?? null;
  if (target) {
    const total = Money.sum(requested);
    if (target.gt(total)) throw new RuleViolation(`total_liquid_value_brl exceeds total face value: ${target} > ${total}`);
    return spreadToTarget(requested, days, target);
  }
  return resolved.map((fees, i) => (fees.liquidValueBrl ? discountToLiquid(requested[i], days[i], fees.liquidValueBrl) : discountByRates(requested[i], days[i], fees)));
}

/**
 * Prices an operation exactly to the cent (DESIGN.md §6). Pure: every input, the business date
 * included, comes from the caller. Refuses `total_liquid_value_brl` above the requested total and
 * `RECEIVABLE_DISCOUNT_EXCEEDS_BASE` (after the spread). Totals are sums of the rounded parts.
 */
export function priceOperation(input: PricingInput): PricedOperation {
  const { receivables, policy } = input;
  const targetPriced = Boolean(input.fees?.totalLiquidValueBrl);
  const resolved = receivables.map((r) => resolveFees({
    receivable: r.fees, operation: input.fees, assignor: input.assignorDefaults,
    payer: input.payerDefaultsByDocument.get(r.payerDocument) ?? null, policy: policy.fees,
  }));
  const today = dayNumber(input.businessDate);
  const toDue = receivables.map((r) => Math.max(0, dayNumber(r.dueDate) - today));
  const days = toDue.map((d, i) => d + resolved[i].floatingDays);
  const priced: PricedReceivable[] = discounts(input, resolved, days).map((d, i) => ({
    discount: d.discount,
    monthlyRatePct: d.monthlyRatePct,
    discountPct: d.discountPct,
    fixedDiscountBrl: d.fixedDiscountBrl,
    input: receivables[i],
    daysToDue: toDue[i],
    floatingDays: resolved[i].floatingDays,
    daysAdvanced: days[i],
    feeSource: targetPriced ? 'operation' : resolved[i].source,
    liquid: receivables[i].requestedNetFutureValue.minus(d.discount),
  }));
  const refusal = exceedsBase(priced);
  if (refusal) throw refusal;
  return summarise(input, priced, resolved);
}

/**
 * A mean of whole days rounded half up, in doubles: the quotient of two integers is correctly
 * rounded, so it is exactly k + 0.5 when the mean is, and at least 1/(2·count) away from it
 * otherwise, far more than a double's error (days are never negative). A property test compares
 * it with the decimal computation.
 */
export function averageDays(totalDays: number, count: number): number {
  return Math.round(totalDays / count);
}

function summarise(input: PricingInput, priced: PricedReceivable[], resolved: ResolvedFees[]): PricedOperation {
  const requested = Money.sum(priced.map((p) => p.input.requestedNetFutureValue));
  const discount = Money.sum(priced.map((p) => p.discount));
  // Each liquid is its requested value less its discount, exactly, so their sum is the difference of the sums.
  const liquid = requested.minus(discount);
  const net = Money.sum(priced.map((p) => p.input.netFutureValue));
  const dayWeight = priced.reduce((sum, p) => sum.plus(p.input.requestedNetFutureValue.amount.times(p.daysAdvanced)), new Dec(0));
  const weightedDays = dayWeight.div(requested.amount);
  const cost = cet(requested, liquid, weightedDays);
  if (!Number.isFinite(cost.annualPct.toNumber())) throw unwritableCet(cost);
  const otherDebt = input.otherDebtDiscounts ? input.otherDebtDiscounts.min(liquid) : null;
  const usedLevel = (level: FeeSource) => priced.some((p, i) => p.feeSource === level || resolved[i].floatingSource === level);
  const findings = [
    cetFinding(cost.monthlyPct, input.policy, 'operation'),
    ...priced.filter((p) => p.input.fees.liquidValueBrl).map((p) => cetFinding(p.monthlyRatePct, input.policy, 'receivable', p.input.externalId)),
  ].filter((f): f is CetFinding => f !== null);
  return {
    businessDate: input.businessDate,
    receivables: priced,
    // A receivable sent without gross carries its NFV as gross (the same value): then the sums are too.
    grossFutureValue: priced.every((p) => p.input.grossFutureValue === p.input.netFutureValue) ? net : Money.sum(priced.map((p) => p.input.grossFutureValue)),
    netFutureValue: net,
    requestedNetFutureValue: requested,
    presentValueDiscount: discount,
    netLiquidValue: liquid,
    otherDebtDiscounts: otherDebt,
    netPresentLiquidValue: otherDebt ? liquid.minus(otherDebt) : liquid,
    floatingDays: input.fees?.floatingDays ?? input.assignorDefaults?.floatingDays ?? input.policy.fees.floatingDays,
    averageDaysInAdvance: averageDays(priced.reduce((sum, p) => sum + p.daysAdvanced, 0), priced.length),
    weightedAvgDays: weightedDays.toDecimalPlaces(2),
    cetMonthlyPct: cost.monthlyPct,
    cetAnnualPct: cost.annualPct,
    assignorDefaultsUsed: usedLevel('assignor'),
    payerDefaultsUsed: usedLevel('payer'),
    cetFindings: findings,
  };
}

/** Creation enforces the CET range that simulation only advises on: the first finding refuses. */
export function enforceCetBounds(op: PricedOperation): void {
  const [first] = op.cetFindings;
  if (first) throw new RuleViolation({ ...first });
}
