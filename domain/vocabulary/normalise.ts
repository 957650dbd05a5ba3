import Decimal from 'decimal.js';
import { RuleViolation } from '../errors';
import { Dec, Money } from '../money';
import { InputErrors } from '../money-input';
import { ConflictField, ReadValue, readMoneyValue } from './read';

type Loc = (string | number)[];

/** The six routes that take money under the vocabulary; each reads and checks a different part. */
export type MoneyRoute = 'simulate' | 'direct' | 'stock' | 'stock_patch' | 'request_anticipation' | 'simulate_anticipation';

interface Profile {
  net: 'required' | 'optional' | 'absent';
  requested: boolean;
  /** `requested_net_future_value_percent` and partial anticipation (route rule 3). */
  percent: boolean;
  /** Gross and deductions, with `DEDUCTIONS_REQUIRED_WITH_GROSS` and `VALUE_DECOMPOSITION_MISMATCH`. */
  gross: boolean;
  /** NFV above gross refused here as a schema failure; PATCH checks the resulting values itself. */
  nfvAboveGross: boolean;
}

const ITEM: Profile = { net: 'required', requested: true, percent: true, gross: true, nfvAboveGross: true };
const ANTICIPATION: Profile = { net: 'absent', requested: true, percent: false, gross: false, nfvAboveGross: false };
const PROFILES: Record<MoneyRoute, Profile> = {
  simulate: ITEM,
  direct: ITEM,
  stock: { ...ITEM, requested: false, percent: false },
  stock_patch: { ...ITEM, net: 'optional', requested: false, percent: false, nfvAboveGross: false },
  request_anticipation: ANTICIPATION,
  simulate_anticipation: ANTICIPATION,
};

/** One object carrying value fields: a receivable, a stock item, a PATCH body, an anticipation body. */
export interface ValueSource {
  raw: Record<string, unknown>;
  loc: Loc;
  /** The receivable's `external_id`, named in the requested-above-NFV message. */
  label?: string;
}

export interface ValueSet {
  /** As sent under either name; null when omitted (then gross is the NFV). */
  grossFutureValue: Money | null;
  grossFutureValueDeductions: Money | null;
  netFutureValue: Money | null;
  /** Absolute, or resolved from the percent (rounded down to cents). */
  requestedNetFutureValue: Money | null;
  requestedPercent: Dec | null;
}

interface Read {
  source: ValueSource;
  gross: ReadValue;
  deductions: Money | null;
  net: ReadValue;
  requested: ReadValue;
  percent: Dec | null;
}

const PERCENT_RULE = { places: 4, noun: 'Percent', max: new Dec(100), positive: true };
const REQUESTED_NAMES = 'requested_net_future_value, requested_advance_value or requested_net_future_value_percent';
const NONE: ReadValue = { value: null, sentAs: null };

function readSource(source: ValueSource, profile: Profile, errors: InputErrors, conflicts: ConflictField[]): Read {
  const { raw, loc } = source;
  const money = (name: 'gross_future_value' | 'net_future_value' | 'requested_net_future_value') => readMoneyValue(raw, name, loc, errors, conflicts);
  const read: Read = { source, gross: NONE, deductions: null, net: NONE, requested: NONE, percent: null };
  if (profile.gross) {
    read.gross = money('gross_future_value');
    const deductions = raw.gross_future_value_deductions;
    if (deductions !== undefined && deductions !== null) read.deductions = errors.money(deductions, loc, undefined, 'gross_future_value_deductions') ?? null;
  }
  if (profile.net !== 'absent') {
    read.net = money('net_future_value');
    if (read.net.value?.isZero()) errors.add([...loc, read.net.sentAs!], 'Input should be greater than 0', 'greater_than', raw[read.net.sentAs!], { gt: 0 });
    else if (!read.net.sentAs && profile.net === 'required') errors.add([...loc, 'net_face_value'], 'Field required: send net_future_value or net_face_value', 'missing');
  }
  if (profile.requested) {
    read.requested = money('requested_net_future_value');
    const percent = raw.requested_net_future_value_percent;
    if (profile.percent && percent !== undefined && percent !== null) read.percent = errors.decimal(percent, [...loc, 'requested_net_future_value_percent'], PERCENT_RULE) ?? null;
    if (read.requested.value?.isZero()) errors.add([...loc, read.requested.sentAs!], 'Input should be greater than 0', 'greater_than', raw[read.requested.sentAs!], { gt: 0 });
    else if (!read.requested.sentAs && !(profile.percent && percent !== undefined && percent !== null)) {
      errors.add([...loc, 'requested_advance_value'], `Field required: send ${profile.percent ? REQUESTED_NAMES : 'requested_net_future_value or requested_advance_value'}`, 'missing');
    }
  }
  return read;
}

function refuse(code: string, message: string, extra: Record<string, unknown>): RuleViolation {
  return new RuleViolation({ code, message, ...extra });
}

/** The business codes, in a fixed order; each refuses the whole request at its first offender. */
function checkRules(reads: Read[], profile: Profile): void {
  const missingDeductions = reads.find((r) => r.gross.sentAs === 'gross_future_value' && !r.deductions);
  if (missingDeductions) {
    throw refuse('DEDUCTIONS_REQUIRED_WITH_GROSS', 'gross_future_value requires gross_future_value_deductions (send 0 when there are none)', {
      fields: ['gross_future_value', 'gross_future_value_deductions'], loc: missingDeductions.source.loc,
    });
  }
  const mismatch = reads.find((r) => r.gross.value && r.deductions && r.net.value && !r.net.value.equals(r.gross.value.minus(r.deductions)));
  if (mismatch) {
    const expected = mismatch.gross.value!.minus(mismatch.deductions!);
    throw refuse('VALUE_DECOMPOSITION_MISMATCH', `net_future_value (${mismatch.net.value}) must equal gross_future_value minus gross_future_value_deductions (${expected})`, {
      gross_future_value: mismatch.gross.value!.toString(),
      gross_future_value_deductions: mismatch.deductions!.toString(),
      net_future_value: mismatch.net.value!.toString(),
      expected_net_future_value: expected.toString(),
      loc: mismatch.source.loc,
    });
  }
  const ambiguous = reads.find((r) => r.percent && r.requested.value);
  if (ambiguous) {
    throw refuse('REQUESTED_VALUE_AMBIGUOUS', 'Send either requested_net_future_value (or requested_advance_value) or requested_net_future_value_percent, not both', {
      fields: ['requested_net_future_value', 'requested_net_future_value_percent'], loc: ambiguous.source.loc,
    });
  }
  if (profile.nfvAboveGross) {
    const errors = new InputErrors();
    for (const r of reads.filter((x) => x.gross.value && x.net.value?.gt(x.gross.value))) {
      errors.add([...r.source.loc, r.net.sentAs!], `${r.net.sentAs} (${r.net.value}) cannot exceed ${r.gross.sentAs} (${r.gross.value})`, 'value_error', r.source.raw[r.net.sentAs!]);
    }
    errors.throwIfAny();
  }
}

/** Percent resolution: `p / 100 × NFV` rounded down to cents, so 100 gives the exact NFV. */
function resolveRequested(r: Read, errors: InputErrors): Money | null {
  if (!r.percent || !r.net.value) return r.requested.value;
  const resolved = Money.of(r.net.value.amount.times(r.percent).div(100), Decimal.ROUND_DOWN);
  if (resolved.isZero()) {
    errors.add([...r.source.loc, 'requested_net_future_value_percent'], `${r.percent.toFixed()}% of ${r.net.value} is less than one cent`, 'greater_than', r.percent.toNumber());
  }
  return resolved;
}

/**
 * The one normaliser of the monetary vocabulary. Reads canonical and deprecated names of every
 * source, then refuses the whole request, before any effect, in this order: schema failures
 * (`validation_error`, all of them), `VOCABULARY_CONFLICT` (all pairs), `DEDUCTIONS_REQUIRED_WITH_GROSS`,
 * `VALUE_DECOMPOSITION_MISMATCH`, `REQUESTED_VALUE_AMBIGUOUS`, NFV above gross, and requested above
 * NFV (the contract's string, first offender in payload order). A caller reading other fields
 * passes its own `errors`, so their schema failures and these arrive in one 422.
 */
export function normaliseValues(sources: readonly ValueSource[], route: MoneyRoute, errors = new InputErrors()): ValueSet[] {
  const profile = PROFILES[route];
  const conflicts: ConflictField[] = [];
  const reads = sources.map((source) => readSource(source, profile, errors, conflicts));
  errors.throwIfAny();
  if (conflicts.length > 0) {
    throw refuse('VOCABULARY_CONFLICT', 'A value was sent under its canonical and deprecated names with different numbers', { fields: conflicts });
  }
  checkRules(reads, profile);
  const requested = reads.map((r) => resolveRequested(r, errors));
  errors.throwIfAny();
  const above = reads.findIndex((r, i) => r.net.value && requested[i]?.gt(r.net.value));
  if (above >= 0) {
    const { source, net } = reads[above];
    throw new RuleViolation(`Receivable ${source.label ?? above}: requested_advance_value (${requested[above]}) cannot exceed net_face_value (${net.value})`);
  }
  return reads.map((r, i) => ({
    grossFutureValue: r.gross.value,
    grossFutureValueDeductions: r.deductions,
    netFutureValue: r.net.value,
    requestedNetFutureValue: requested[i],
    requestedPercent: r.percent,
  }));
}
