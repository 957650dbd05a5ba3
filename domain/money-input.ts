import { Dec, Money } from './money';
import { FieldError, ValidationFailed } from './errors';

type Loc = (string | number)[];
type Problem = Omit<FieldError, 'loc' | 'input'>;

const PLAIN = /^-?\d+(?:\.\d+)?$/;
const EXPONENT = /^-?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/;
const NOT_FINITE = /^[+-]?(nan|inf|infinity)$/i;
/** Beyond 15 significant digits a JSON number is no longer the number the client wrote. */
const SAFE_DIGITS = 15;
/** numeric(18,2) columns: 16 digits before the point. */
const MAX_INTEGER_DIGITS = 16;

export interface DecimalRule {
  places: number;
  /** What the value is called in messages ("Amount", "Rate"). */
  noun: string;
  max?: Dec;
  /** Zero is refused (`0 < p`), not just negatives. */
  positive?: boolean;
}

function text(raw: unknown): string | Problem {
  if (typeof raw === 'number') {
    const written = String(raw);
    if (!Number.isFinite(raw)) return { type: 'finite_number', msg: 'Input should be a finite number' };
    if (written.replace(/^-|\.|e.*$/gi, '').replace(/^0+/, '').length > SAFE_DIGITS) {
      return { type: 'decimal_parsing', msg: `Numbers with more than ${SAFE_DIGITS} significant digits lose precision in JSON; send the amount as a string` };
    }
    return written;
  }
  if (typeof raw === 'string') return raw;
  return { type: 'decimal_type', msg: 'Input should be a number or a string of digits, e.g. "1500.00"' };
}

function notPlain(written: string): Problem {
  if (NOT_FINITE.test(written.trim())) return { type: 'finite_number', msg: 'Input should be a finite number' };
  if (EXPONENT.test(written)) return { type: 'decimal_parsing', msg: 'Exponent notation is not accepted; write the plain number, e.g. "1000.00"' };
  return { type: 'decimal_parsing', msg: 'Input should be a decimal number with a dot as separator, e.g. "1500.00"' };
}

/** Parses a JSON number or string into a decimal, or says in plain words why it cannot. */
export function parseDecimal(raw: unknown, rule: DecimalRule): Dec | Problem {
  const written = text(raw);
  if (typeof written !== 'string') return written;
  // Tested, not matched: the parts are read by position, without a string for each (a simulation parses dozens).
  if (!PLAIN.test(written)) return notPlain(written);
  const signed = written.charCodeAt(0) === 45;
  const dot = written.indexOf('.');
  const wholeEnd = dot < 0 ? written.length : dot;
  const value = new Dec(written);
  if (signed && !value.isZero()) return { type: 'greater_than_equal', msg: 'Input should be greater than or equal to 0', ctx: { ge: 0 } };
  if (rule.positive && value.isZero()) return { type: 'greater_than', msg: 'Input should be greater than 0', ctx: { gt: 0 } };
  // Trailing zeros of the fraction and leading zeros of the whole part do not count.
  if (written.length - wholeEnd - 1 > rule.places && written.slice(dot + 1).replace(/0+$/, '').length > rule.places) {
    return { type: 'decimal_max_places', msg: `${rule.noun} should have no more than ${rule.places} decimal places`, ctx: { decimal_places: rule.places } };
  }
  const wholeStart = signed ? 1 : 0;
  if (wholeEnd - wholeStart > MAX_INTEGER_DIGITS && written.slice(wholeStart, wholeEnd).replace(/^0+/, '').length > MAX_INTEGER_DIGITS) {
    return { type: 'decimal_whole_digits', msg: `${rule.noun} should have no more than ${MAX_INTEGER_DIGITS} digits before the point`, ctx: { whole_digits: MAX_INTEGER_DIGITS } };
  }
  if (rule.max && value.gt(rule.max)) {
    return { type: 'less_than_equal', msg: `Input should be less than or equal to ${rule.max.toFixed()}`, ctx: { le: rule.max.toNumber() } };
  }
  return value;
}

export const MONEY_RULE: DecimalRule = { places: 2, noun: 'Amount' };
/** Rates are stored as numeric(9,4). */
export const RATE_RULE: DecimalRule = { places: 4, noun: 'Rate', max: new Dec(100) };

/**
 * Collects the schema-like failures of a whole request, so one 422 `validation_error` reports
 * them all (the FastAPI way) instead of the first one only.
 */
export class InputErrors {
  readonly list: FieldError[] = [];

  add(loc: Loc, msg: string, type: string, input?: unknown, ctx?: Record<string, unknown>): void {
    this.list.push({ loc, msg, type, ...(input === undefined ? {} : { input }), ...(ctx ? { ctx } : {}) });
  }

  /** `field`, when given, is appended to `loc` only on failure: the common path allocates nothing. */
  decimal(raw: unknown, loc: Loc, rule: DecimalRule, field?: string): Dec | undefined {
    const parsed = parseDecimal(raw, rule);
    if (parsed instanceof Dec) return parsed;
    this.add(field === undefined ? loc : [...loc, field], parsed.msg, parsed.type, raw, parsed.ctx);
    return undefined;
  }

  money(raw: unknown, loc: Loc, rule?: Partial<DecimalRule>, field?: string): Money | undefined {
    const value = this.decimal(raw, loc, rule ? { ...MONEY_RULE, ...rule } : MONEY_RULE, field);
    return value === undefined ? undefined : Money.of(value);
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new ValidationFailed(this.list);
  }
}

/** One money input on its own: the value, or 422 `validation_error` at `loc`. */
export function parseMoney(raw: unknown, loc: Loc): Money {
  const errors = new InputErrors();
  const value = errors.money(raw, loc);
  errors.throwIfAny();
  return value!;
}
