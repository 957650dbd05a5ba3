import { ValidationFailed } from '../errors';
import { Dec, Money } from '../money';
import type { InputErrors } from '../money-input';
import { given, optionalMoney, readRateFields, refuseRatesBeside } from './fee-fields';
import type { FeeDefaults, PolicyFees } from './policy';
import type { PricingRoute, ReceivableFees, ReceivableInput } from './receivables';

export type FeeSource = 'receivable' | 'operation' | 'assignor' | 'payer' | 'policy';
export const FEE_HIERARCHY = 'receivable > operation > assignor > payer > policy';

/** The request's `fees` object: the operation level, plus the optional net target. */
export interface OperationFees extends FeeDefaults {
  totalLiquidValueBrl: Money | null;
}

type Raw = Record<string, unknown>;
const setsRates = (level: FeeDefaults | ReceivableFees | null): level is FeeDefaults =>
  level !== null && (level.monthlyRatePct !== null || level.discountPct !== null || level.fixedDiscountBrl !== null || ('liquidValueBrl' in level && level.liquidValueBrl !== null));

/**
 * Reads `fees` into `errors` (the caller throws them with the receivables' ones). The target
 * next to the operation's rate fields is refused on creation only (the contract: "mutual
 * exclusion of `fees` fields is enforced on creation only"); simulation lets the target win.
 */
export function readOperationFees(raw: unknown, route: PricingRoute, errors: InputErrors): OperationFees | null {
  if (raw === undefined || raw === null) return null;
  const fees = raw as Raw;
  const loc = ['body', 'fees'];
  const floating = fees.floating_days;
  const floatingDays = given(fees, 'floating_days') && Number.isInteger(floating) && (floating as number) >= 0 ? (floating as number) : null;
  if (given(fees, 'floating_days') && floatingDays === null) {
    errors.add([...loc, 'floating_days'], 'Input should be an integer greater than or equal to 0', 'int_type', floating);
  }
  if (route === 'direct') refuseRatesBeside(fees, loc, 'total_liquid_value_brl', errors);
  const { monthlyRatePct, discountPct, fixedDiscountBrl } = readRateFields(fees, loc, errors);
  return { monthlyRatePct, discountPct, fixedDiscountBrl, floatingDays, totalLiquidValueBrl: optionalMoney(fees, loc, 'total_liquid_value_brl', errors) };
}

/** The net target prices every receivable, so receivables with their own pricing are refused next to it (both routes). */
export function refuseOwnPricingUnderTarget(fees: OperationFees | null, receivables: readonly ReceivableInput[]): void {
  if (!fees?.totalLiquidValueBrl) return;
  const priced = receivables.findIndex((r) => setsRates(r.fees));
  if (priced < 0) return;
  throw ValidationFailed.field(['body', 'fees', 'total_liquid_value_brl'],
    `total_liquid_value_brl prices every receivable; receivables[${priced}] carries its own pricing`, 'value_error', fees.totalLiquidValueBrl.toString());
}

export interface FeeLevels {
  receivable: ReceivableFees;
  operation: FeeDefaults | null;
  assignor: FeeDefaults | null;
  payer: FeeDefaults | null;
  policy: PolicyFees;
}

export interface ResolvedFees {
  /** The level that priced the receivable: the first one that sets any rate field. */
  source: FeeSource;
  monthlyRatePct: Dec;
  discountPct: Dec;
  fixedDiscountBrl: Money;
  liquidValueBrl: Money | null;
  floatingDays: number;
  /** Floating days are resolved on their own (the receivable has none): first level that sets them. */
  floatingSource: Exclude<FeeSource, 'receivable'>;
}

const ZERO = new Dec(0);
/**
 * The fee hierarchy `receivable > operation > assignor > payer > policy`, level by level: the
 * first level that sets a rate field supplies all three (the ones it leaves out are zero).
 */
export function resolveFees(levels: FeeLevels): ResolvedFees {
  const source: FeeSource = setsRates(levels.receivable) ? 'receivable'
    : setsRates(levels.operation) ? 'operation'
      : setsRates(levels.assignor) ? 'assignor'
        : setsRates(levels.payer) ? 'payer' : 'policy';
  const level: FeeDefaults | ReceivableFees = source === 'policy' ? levels.policy : levels[source]!;
  const floatingSource = levels.operation?.floatingDays != null ? 'operation'
    : levels.assignor?.floatingDays != null ? 'assignor'
      : levels.payer?.floatingDays != null ? 'payer' : 'policy';
  return {
    source,
    monthlyRatePct: level.monthlyRatePct ?? ZERO,
    discountPct: level.discountPct ?? ZERO,
    fixedDiscountBrl: level.fixedDiscountBrl ?? Money.ZERO,
    liquidValueBrl: source === 'receivable' ? levels.receivable.liquidValueBrl : null,
    floatingDays: floatingSource === 'policy' ? levels.policy.floatingDays : levels[floatingSource]!.floatingDays!,
    floatingSource,
  };
}
