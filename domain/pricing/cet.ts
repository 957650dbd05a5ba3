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
  return fastCet(requested, liquid, days) ?? exactCet(requested, liquid, days);
}

/** The definition, in 30-digit decimals. */
export function exactCet(requested: Money, liquid: Money, days: Decimal): Cet {
  const monthlyFactor = new CetDec(requested.amount).div(liquid.amount).pow(new CetDec(30).div(days));
  const pct = (factor: Decimal) => factor.minus(1).times(100).toDecimalPlaces(PLACES);
  return { monthlyPct: pct(monthlyFactor), annualPct: pct(monthlyFactor.pow(12)) };
}

/**
 * A bound on the relative error of a factor computed in doubles: inputs rounded to 17 digits, a
 * power whose logarithm is at most 709 (beyond, the double is infinite and the exact path answers),
 * then its 12th power: about 2e-12 at worst, 1e-15 for realistic rates. Taken five times wider.
 */
const DOUBLE_RELATIVE_ERROR = 1e-11;
const STEPS = 10 ** PLACES;

/** `(factor − 1)·100` rounded to 4 places (half away from zero), or null when a double cannot be sure of the digit. */
function roundedPct(factor: number): Decimal | null {
  const steps = (factor - 1) * 100 * STEPS;
  if (!Number.isFinite(steps) || Math.abs(steps) < 1) return null;
  const whole = Math.floor(Math.abs(steps));
  const fraction = Math.abs(steps) - whole;
  // The exact value lies within this many steps of the double's: too near a half, and the rounding could go either way.
  if (Math.abs(fraction - 0.5) <= 100 * STEPS * factor * DOUBLE_RELATIVE_ERROR) return null;
  const rounded = fraction > 0.5 ? whole + 1 : whole;
  return new CetDec(Math.sign(steps) * rounded).div(STEPS);
}

/**
 * The same figures from doubles, whenever they certainly round as the exact computation does.
 * A 30-digit power with a fractional exponent costs about 50 µs, a tenth of the api's CPU for a
 * 10-receivable simulation (profile in bench/README.md); a double's is within a few 1e-15 of the exact
 * value, so unless it falls within a hair of a rounding boundary both give the same 4 places, and
 * in that case (and for a non-finite or vanishing cost) the exact computation answers.
 */
function fastCet(requested: Money, liquid: Money, days: Decimal): Cet | null {
  const ratio = requested.amount.toNumber() / liquid.amount.toNumber();
  if (!(ratio > 0) || !Number.isFinite(ratio)) return null;
  const monthlyFactor = ratio ** (30 / days.toNumber());
  const monthlyPct = roundedPct(monthlyFactor);
  const annualPct = monthlyPct && roundedPct(monthlyFactor ** 12);
  return monthlyPct && annualPct ? { monthlyPct, annualPct } : null;
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
