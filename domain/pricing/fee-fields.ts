import type { Dec, Money } from '../money';
import { InputErrors, RATE_RULE } from '../money-input';

type Raw = Record<string, unknown>;
type Loc = (string | number)[];

/** `null` in a field counts as not sent, as everywhere in the vocabulary. */
export const given = (raw: Raw, name: string) => raw[name] !== undefined && raw[name] !== null;

export function optionalMoney(raw: Raw, loc: Loc, name: string, errors: InputErrors): Money | null {
  return given(raw, name) ? errors.money(raw[name], loc, undefined, name) ?? null : null;
}

function optionalRate(raw: Raw, loc: Loc, name: string, errors: InputErrors): Dec | null {
  return given(raw, name) ? errors.decimal(raw[name], loc, RATE_RULE, name) ?? null : null;
}

export interface RateFields {
  monthlyRatePct: Dec | null;
  discountPct: Dec | null;
  fixedDiscountBrl: Money | null;
}

/** The three rate fields, read alike on a receivable and in `fees`. */
export function readRateFields(raw: Raw, loc: Loc, errors: InputErrors): RateFields {
  return {
    monthlyRatePct: optionalRate(raw, loc, 'monthly_rate_pct', errors),
    discountPct: optionalRate(raw, loc, 'discount_pct', errors),
    fixedDiscountBrl: optionalMoney(raw, loc, 'fixed_discount_brl', errors),
  };
}

const RATE_FIELDS = ['monthly_rate_pct', 'discount_pct', 'fixed_discount_brl'];

/**
 * A net value fixed in money (`liquid_value_brl`, `total_liquid_value_brl`) next to rate fields
 * is refused at the net field's `loc`, naming the rate fields sent.
 */
export function refuseRatesBeside(raw: Raw, loc: Loc, netField: string, errors: InputErrors): void {
  if (!given(raw, netField)) return;
  const clashing = RATE_FIELDS.filter((name) => given(raw, name));
  if (clashing.length > 0) {
    errors.add([...loc, netField], `${netField} is mutually exclusive with ${clashing.join(', ')}`, 'value_error', raw[netField]);
  }
}
