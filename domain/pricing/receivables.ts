import { ValidationFailed } from '../errors';
import type { Dec, Money } from '../money';
import { InputErrors } from '../money-input';
import { readDocument } from '../documents';
import { normaliseValues } from '../vocabulary';
import { isCalendarDate } from './business-date';
import { optionalMoney, RateFields, readRateFields, refuseRatesBeside } from './fee-fields';

/** The receivable's own pricing: the first level of the fee hierarchy. */
export interface ReceivableFees extends RateFields {
  /** Worked backwards; mutually exclusive with the three rate fields. */
  liquidValueBrl: Money | null;
}

export interface ReceivableInput {
  externalId: string;
  identifier: string | null;
  payerName: string;
  /** Digits (or the alphanumeric CNPJ), without punctuation. */
  payerDocument: string;
  dueDate: string;
  backingType: string;
  /** Gross as sent, or the NFV when omitted. */
  grossFutureValue: Money;
  grossFutureValueDeductions: Money | null;
  netFutureValue: Money;
  requestedNetFutureValue: Money;
  requestedPercent: Dec | null;
  fees: ReceivableFees;
}

export type PricingRoute = 'simulate' | 'direct';

type Raw = Record<string, unknown>;

function readFees(raw: Raw, loc: (string | number)[], errors: InputErrors): ReceivableFees {
  refuseRatesBeside(raw, loc, 'liquid_value_brl', errors);
  // Named, not spread: V8 copies a spread object property by property, a few µs per receivable.
  const { monthlyRatePct, discountPct, fixedDiscountBrl } = readRateFields(raw, loc, errors);
  return { monthlyRatePct, discountPct, fixedDiscountBrl, liquidValueBrl: optionalMoney(raw, loc, 'liquid_value_brl', errors) };
}

/** Checks the identity fields and returns the payer document as stored (empty when invalid). */
function readIdentity(raw: Raw, loc: (string | number)[], errors: InputErrors, seen: Map<string, number>, index: number): string {
  const externalId = String(raw.external_id);
  const first = seen.get(externalId);
  if (first === undefined) seen.set(externalId, index);
  else errors.add([...loc, 'external_id'], `external_id must be unique within the operation; receivables[${first}] already uses it`, 'value_error', externalId);
  const document = typeof raw.payer_document === 'string' ? readDocument(raw.payer_document) : { reason: 'Input should be a valid string' };
  if ('reason' in document) errors.add([...loc, 'payer_document'], document.reason, 'value_error', raw.payer_document);
  if (typeof raw.due_date !== 'string' || !isCalendarDate(raw.due_date)) {
    errors.add([...loc, 'due_date'], 'Input should be a valid date in the format YYYY-MM-DD', 'date_from_datetime_parsing', raw.due_date);
  }
  return 'reason' in document ? '' : document.value;
}

/**
 * The receivables of `POST /v1/simulate` and `POST /v1/operations/direct`, read the same way by
 * both: documents, dates, fee fields and the monetary vocabulary. Every schema-like failure of
 * the whole list (and whatever the caller already put in `errors`) is reported in one 422
 * before any business rule runs.
 */
export function normaliseReceivables(raw: unknown, { route }: { route: PricingRoute }, errors = new InputErrors()): ReceivableInput[] {
  if (!Array.isArray(raw) || raw.length === 0) throw ValidationFailed.field(['body', 'receivables'], 'List should have at least 1 item', 'too_short', raw);
  const items = raw as Raw[];
  const seen = new Map<string, number>();
  const locs = items.map((_, index) => ['body', 'receivables', index]);
  const documents = items.map((item, index) => readIdentity(item, locs[index], errors, seen, index));
  const fees = items.map((item, index) => readFees(item, locs[index], errors));
  const values = normaliseValues(items.map((item, index) => ({ raw: item, loc: locs[index], label: String(item.external_id) })), route, errors);
  items.forEach((item, index) => {
    const liquid = fees[index].liquidValueBrl;
    const requested = values[index].requestedNetFutureValue!;
    if (liquid?.gt(requested)) {
      errors.add(['body', 'receivables', index, 'liquid_value_brl'], `liquid_value_brl (${liquid}) cannot exceed the requested value (${requested})`, 'less_than_equal', item.liquid_value_brl);
    }
  });
  errors.throwIfAny();
  return items.map((item, index) => {
    const v = values[index];
    return {
      externalId: String(item.external_id),
      identifier: typeof item.identifier === 'string' ? item.identifier : null,
      payerName: String(item.payer_name),
      payerDocument: documents[index],
      dueDate: String(item.due_date),
      backingType: typeof item.backing_type === 'string' ? item.backing_type : 'NFE',
      grossFutureValue: v.grossFutureValue ?? v.netFutureValue!,
      grossFutureValueDeductions: v.grossFutureValueDeductions,
      netFutureValue: v.netFutureValue!,
      requestedNetFutureValue: v.requestedNetFutureValue!,
      requestedPercent: v.requestedPercent,
      fees: fees[index],
    };
  });
}
