import Decimal from 'decimal.js';
import type { Money } from '../money';
import type { PricingPolicy } from './policy';

/** Exponentials need no 60 digits; 30 keep four exact decimals of any realistic rate, faster. */
const CetDec = Decimal.clone({ precision: 30, rounding: Decimal.ROUND_HALF_UP });
const PLACES = 4;
/** A same-day anticipation costs at least what a one-day one does; it keeps the exponent finite. */
const MIN_DAYS = 1;

export interface Cet {
  monthlyPct: Decimal;
  annualPct: Decimal;
}

/**
 * Monthly effective cost `((ΣR / ΣL)^(30/w) − 1)·100`, w the value-weighted days (DESIGN.md §6),
 * and the annual one compounded from the unrounded monthly factor; both rounded to 4 places.
 */
export function cet(requested: Money, liquid: Money, weightedDays: Decimal): Cet {
  const days = Decimal.max(weightedDays, MIN_DAYS);
  const monthlyFactor = new CetDec(requested.amount).div(liquid.amount).pow(new CetDec(30).div(days));
  const pct = (factor: Decimal) => factor.minus(1).times(100).toDecimalPlaces(PLACES);
  return { monthlyPct: pct(monthlyFactor), annualPct: pct(monthlyFactor.pow(12)) };
}

export interface CetFinding {
  code: 'CET_OUT_OF_BOUNDS';
  message: string;
  /** `operation`: the CET of the whole; `receivable`: the implied rate of a `liquid_value_brl`. */
  scope: 'operation' | 'receivable';
  external_id?: string;
  cet_monthly_pct: number;
  min_cet_monthly_pct: number | null;
  max_cet_monthly_pct: number | null;
}

/** Where a monthly cost falls outside the policy's CET range; null inside it (or with no range). */
export function cetFinding(monthlyPct: Decimal, policy: PricingPolicy, scope: CetFinding['scope'], externalId?: string): CetFinding | null {
  const { minCetMonthlyPct: min, maxCetMonthlyPct: max } = policy;
  const below = min !== null && monthlyPct.lt(min);
  const above = max !== null && monthlyPct.gt(max);
  if (!below && !above) return null;
  const subject = scope === 'operation' ? 'Monthly CET' : `Receivable ${externalId}: implied monthly rate`;
  return {
    code: 'CET_OUT_OF_BOUNDS',
    message: `${subject} ${monthlyPct.toFixed()}% is ${below ? 'below' : 'above'} the policy range ${min?.toFixed() ?? '-'}%..${max?.toFixed() ?? '-'}%`,
    scope,
    ...(externalId === undefined ? {} : { external_id: externalId }),
    cet_monthly_pct: monthlyPct.toNumber(),
    min_cet_monthly_pct: min?.toNumber() ?? null,
    max_cet_monthly_pct: max?.toNumber() ?? null,
  };
}
