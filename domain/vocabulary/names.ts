import type { Money } from '../money';

/**
 * The contract's "Monetary vocabulary": each value's canonical name and its deprecated names.
 * Deprecated names stay accepted and returned in the whole 1.x series.
 */
export const MONEY_NAMES = {
  gross_future_value: ['gross_face_value'],
  net_future_value: ['net_face_value'],
  requested_net_future_value: ['requested_advance_value'],
  present_value_discount: ['discounted_value', 'discount_brl'],
  net_present_liquid_value: ['liquid_value'],
  opr_gross_future_value: ['opr_gross_face_value'],
  opr_net_future_value: ['opr_net_face_value'],
  opr_present_value_discount: ['opr_discounted_value'],
  opr_net_present_liquid_value: ['opr_liquid_value'],
} as const satisfies Record<string, readonly string[]>;

export type CanonicalMoney = keyof typeof MONEY_NAMES;

type MoneyValues = Partial<Record<CanonicalMoney, Money | string>>;

/** What `renderMoney(values)` adds: each canonical name in `values` and its deprecated names, as strings. */
export type RenderedMoney<V extends MoneyValues> =
  { [K in keyof V & CanonicalMoney]: string } & { [K in keyof V & CanonicalMoney as (typeof MONEY_NAMES)[K][number]]: string };

/**
 * Every value under both of its names, as money strings: responses always carry both. A string is
 * taken as already rendered (a numeric(18,2) column reads as one). Given `body`, the names are
 * added to it, after what it holds: a presenter that builds on the result instead of spreading it
 * into a literal saves V8's copy of every property (17 µs for the operation's figures).
 */
export function renderMoney<V extends MoneyValues>(values: V): RenderedMoney<V>;
export function renderMoney<V extends MoneyValues, B extends Record<string, unknown>>(values: V, body: B): B & RenderedMoney<V>;
export function renderMoney(values: MoneyValues, body: Record<string, unknown> = {}): Record<string, unknown> {
  // A loop over the keys, not Object.entries: a read of 50 operations renders 550 of these.
  for (const canonical in values) {
    const value = values[canonical as CanonicalMoney];
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : value.toString();
    body[canonical] = text;
    for (const name of MONEY_NAMES[canonical as CanonicalMoney]) body[name] = text;
  }
  return body;
}
