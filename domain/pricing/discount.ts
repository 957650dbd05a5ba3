import { allocate, Dec, Money } from '../money';
import type { ResolvedFees } from './fees';

/** Displayed rates (not money) keep the four places of their numeric(9,4) columns. */
const RATE_PLACES = 4;
const ZERO = new Dec(0);

export interface Discount {
  discount: Money;
  monthlyRatePct: Dec;
  discountPct: Dec;
  fixedDiscountBrl: Money;
}

const HALF_CENT = new Dec(15);
const CENT = new Dec('0.01');

/**
 * `numerator / 3000` rounded half up to cents. For a numerator that is not negative (rates and
 * amounts never are), that is the whole part of `(numerator + 15) / 30` cents: an integer division
 * instead of a 40-digit one and a rounding, a fifth of a receivable's pricing. A property test
 * compares both forms.
 */
export function moneyOfThreeThousandths(numerator: Dec): Money {
  if (numerator.isNegative()) return Money.of(numerator.div(3000));
  return Money.of(numerator.plus(HALF_CENT).divToInt(30).times(CENT));
}

/**
 * DESIGN.md §6: `R·m/100·d/30 + R·p/100 + F`, computed exactly as one fraction
 * `(R·(m·d + 30·p) + 3000·F) / 3000` and rounded half-up to cents once.
 */
export function discountByRates(requested: Money, days: number, fees: ResolvedFees): Discount {
  // Zero terms are skipped: a thousand receivables price in a few milliseconds only without them.
  let factor = fees.monthlyRatePct.times(days);
  if (!fees.discountPct.isZero()) factor = factor.plus(fees.discountPct.times(30));
  let numerator = requested.amount.times(factor);
  if (!fees.fixedDiscountBrl.isZero()) numerator = numerator.plus(fees.fixedDiscountBrl.amount.times(3000));
  return {
    discount: moneyOfThreeThousandths(numerator),
    monthlyRatePct: fees.monthlyRatePct,
    discountPct: fees.discountPct,
    fixedDiscountBrl: fees.fixedDiscountBrl,
  };
}

/**
 * The rate that explains a discount fixed in money: a monthly rate over the days advanced, or,
 * with no days to spread it over, a flat discount percent.
 */
export function impliedRates(discount: Money, requestedDays: Dec, requested: Money): Pick<Discount, 'monthlyRatePct' | 'discountPct'> {
  if (requestedDays.isZero()) {
    return { monthlyRatePct: ZERO, discountPct: requested.isZero() ? ZERO : discount.amount.times(100).div(requested.amount).toDecimalPlaces(RATE_PLACES) };
  }
  return { monthlyRatePct: discount.amount.times(3000).div(requestedDays).toDecimalPlaces(RATE_PLACES), discountPct: ZERO };
}

/** `liquid_value_brl` worked backwards: the discount is what separates it from the requested value. */
export function discountToLiquid(requested: Money, days: number, liquid: Money): Discount {
  const discount = requested.minus(liquid);
  return { discount, ...impliedRates(discount, requested.amount.times(days), requested), fixedDiscountBrl: Money.ZERO };
}

/**
 * `fees.total_liquid_value_brl`: the total discount spread in proportion to R·d (one implied
 * monthly rate for all), cents by largest remainder. When no receivable has days to weigh,
 * the spread follows R alone and the implied rate is a flat discount percent.
 */
export function spreadToTarget(requested: readonly Money[], days: readonly number[], target: Money): Discount[] {
  const total = Money.sum(requested);
  const weights = requested.map((r, i) => r.amount.times(days[i]));
  const weightTotal = weights.reduce((a, b) => a.plus(b), new Dec(0));
  const totalDiscount = total.minus(target);
  const discounts = allocate(totalDiscount, weightTotal.isZero() ? requested.map((r) => r.amount) : weights);
  const rates = impliedRates(totalDiscount, weightTotal, total);
  return discounts.map((discount) => ({ discount, ...rates, fixedDiscountBrl: Money.ZERO }));
}
