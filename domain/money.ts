import Decimal from 'decimal.js';

/**
 * The decimal context of every money and rate computation. The library default of 20
 * significant digits is too few: an 18-digit amount times a rate times days needs more before
 * it is rounded to cents.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Dec = Decimal;

const CENTS = 2;

/**
 * An amount in BRL, always held at exactly two decimal places. Immutable: every operation
 * returns a new value. May be negative inside calculations; inputs are refused when negative.
 */
export class Money {
  static readonly ZERO = new Money(new Dec(0));

  /** Responses render the same amount under two or three names: render it once. */
  private text?: string;

  private constructor(readonly amount: Dec) {}

  /** Rounds half-up to cents (DESIGN.md §6); pass ROUND_DOWN where the contract says "rounded down". */
  static of(value: Decimal.Value, rounding: Decimal.Rounding = Decimal.ROUND_HALF_UP): Money {
    const decimal = value instanceof Dec ? value : new Dec(value);
    return new Money(decimal.decimalPlaces() <= CENTS ? decimal : decimal.toDecimalPlaces(CENTS, rounding));
  }

  static fromCents(cents: Decimal.Value): Money {
    return new Money(new Dec(cents).div(100));
  }

  static sum(values: readonly Money[]): Money {
    let total = new Dec(0);
    for (const value of values) total = total.plus(value.amount);
    return new Money(total);
  }

  get cents(): Dec {
    return this.amount.times(100);
  }

  plus(other: Money): Money {
    return new Money(this.amount.plus(other.amount));
  }

  minus(other: Money): Money {
    return new Money(this.amount.minus(other.amount));
  }

  compare(other: Money): number {
    return this.amount.comparedTo(other.amount);
  }

  equals(other: Money): boolean {
    return this.amount.eq(other.amount);
  }

  gt(other: Money): boolean {
    return this.amount.gt(other.amount);
  }

  gte(other: Money): boolean {
    return this.amount.gte(other.amount);
  }

  isZero(): boolean {
    return this.amount.isZero();
  }

  isNegative(): boolean {
    return this.amount.isNegative() && !this.amount.isZero();
  }

  min(other: Money): Money {
    return this.gt(other) ? other : this;
  }

  /** The contract's rendering: a string with exactly two decimals. */
  toString(): string {
    if (this.text === undefined) {
      // The amount never has more than two places, so padding its plain form is toFixed without a rounding pass.
      const plain = this.amount.toString();
      const dot = plain.indexOf('.');
      this.text = dot < 0 ? `${plain}.00` : plain.length - dot === 2 ? `${plain}0` : plain;
    }
    return this.text;
  }

  toJSON(): string {
    return this.toString();
  }
}

/**
 * Spreads `total` over `weights` without losing or inventing a cent: each share gets the floor
 * of its exact part, and the cents left over go one each to the largest remainders (ties to the
 * earlier position, so the result is deterministic).
 */
export function allocate(total: Money, weights: readonly Decimal.Value[]): Money[] {
  const w = weights.map((weight) => new Dec(weight));
  if (w.length === 0 || w.some((weight) => weight.isNegative())) throw new Error('allocate needs non-negative weights');
  const sum = w.reduce((a, b) => a.plus(b), new Dec(0));
  if (sum.isZero()) throw new Error('allocate needs a positive weight');
  if (total.isNegative()) throw new Error('allocate spreads non-negative totals');
  const cents = total.cents;
  const exact = w.map((weight) => cents.times(weight).div(sum));
  const shares = exact.map((part) => part.floor());
  let leftover = cents.minus(shares.reduce((a, b) => a.plus(b), new Dec(0))).toNumber();
  const order = exact
    .map((part, index) => ({ index, remainder: part.minus(shares[index]) }))
    .sort((a, b) => b.remainder.comparedTo(a.remainder) || a.index - b.index);
  for (const { index } of order) {
    if (leftover <= 0) break;
    shares[index] = shares[index].plus(1);
    leftover -= 1;
  }
  return shares.map((share) => Money.fromCents(share));
}
