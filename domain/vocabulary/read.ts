import type { Money } from '../money';
import type { InputErrors } from '../money-input';
import { CanonicalMoney, MONEY_NAMES } from './names';

type Loc = (string | number)[];

/** One entry of `VOCABULARY_CONFLICT`'s `detail.fields` (plus `loc`, which says where). */
export interface ConflictField {
  public_field: string;
  public_value: string;
  deprecated_field: string;
  deprecated_value: string;
  loc: Loc;
}

export interface ReadValue {
  value: Money | null;
  /** The name the value arrived under; null when absent. */
  sentAs: string | null;
}

/** Each value's names, canonical first: the order they are read in. */
const NAMES = Object.fromEntries(Object.entries(MONEY_NAMES).map(([canonical, deprecated]) => [canonical, [canonical, ...deprecated]])) as Record<CanonicalMoney, string[]>;

const present = (raw: Record<string, unknown>, name: string) => raw[name] !== undefined && raw[name] !== null;

/**
 * Reads one value sent under its canonical name, a deprecated name or both. `null` counts as
 * absent. Each name that arrived is parsed at its own `loc`; a pair carrying different numbers
 * is a conflict (the numbers compared as amounts, so `10000` equals `"10000.00"`).
 */
export function readMoneyValue(
  raw: Record<string, unknown>,
  canonical: CanonicalMoney,
  loc: Loc,
  errors: InputErrors,
  conflicts: ConflictField[],
): ReadValue {
  let first: { name: string; value: Money | undefined } | undefined;
  for (const name of NAMES[canonical]) {
    if (!present(raw, name)) continue;
    const value = errors.money(raw[name], loc, undefined, name);
    if (!first) first = { name, value };
    else if (first.value && value && !first.value.equals(value)) {
      conflicts.push({ public_field: first.name, public_value: first.value.toString(), deprecated_field: name, deprecated_value: value.toString(), loc });
    }
  }
  return first ? { value: first.value ?? null, sentAs: first.name } : { value: null, sentAs: null };
}
