import { RuleViolation } from './errors';
import type { TaxDocument } from './documents';

/**
 * The NF-e access key (chave de acesso, 44 characters): cUF(2) AAMM(2+2) issuer CNPJ(14) model(2)
 * serie(3) number(9) emission type(1) code(8) check digit(1). Since the alphanumeric CNPJ
 * (July 2026) the issuer field may carry letters; every other position is a digit, and the check
 * digit values characters as ASCII − 48, as the CNPJ's own check digits do.
 */
const SHAPE = /^\d{6}[0-9A-Z]{12}\d{26}$/;
const ACCEPTED_MODELS = ['55', '65'];

export interface NfeKeyParts {
  /** `YYMM` of the issue date. */
  yearMonth: string;
  issuer: string;
  model: string;
  serie: string;
  number: string;
}

/** Modulo 11 over the first 43 characters, weights 2..9 from the right; a rest of 0 or 1 gives 0. */
export function nfeCheckDigit(first43: string): number {
  let sum = 0;
  for (let i = first43.length - 1, weight = 2; i >= 0; i -= 1, weight = weight === 9 ? 2 : weight + 1) {
    sum += (first43.charCodeAt(i) - 48) * weight;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** The stored form of a key: without spaces (keys are printed in groups of four), letters upper-cased. */
export const normaliseNfeKey = (raw: string): string => raw.replace(/\s/g, '').toUpperCase();

function partsOf(key: string): NfeKeyParts {
  return { yearMonth: key.slice(2, 6), issuer: key.slice(6, 20), model: key.slice(20, 22), serie: key.slice(22, 25), number: key.slice(25, 34) };
}

/** The NF-e fields of one receivable, as the client sent them (the key already normalised). */
export interface NfeInput {
  externalId: string;
  /** Path of the receivable in the body; the failing field is appended. */
  loc: (string | number)[];
  key: string;
  number?: string | null;
  serie?: string | null;
  issueDate?: string | null;
}

type Field = 'nfe_key' | 'nfe_number' | 'nfe_serie' | 'nfe_issue_date';

/** Every code `checkNfeKey` answers with; the OpenAPI document lists these. */
export const NFE_KEY_CODES = [
  'NFE_KEY_MALFORMED', 'NFE_KEY_CHECK_DIGIT_MISMATCH', 'NFE_KEY_MODEL_NOT_ACCEPTED', 'NFE_KEY_ISSUER_MISMATCH',
  'NFE_NUMBER_MISMATCH', 'NFE_SERIE_MISMATCH', 'NFE_ISSUE_DATE_MISMATCH',
] as const;
export type NfeKeyCode = (typeof NFE_KEY_CODES)[number];

function refusal(input: NfeInput, code: NfeKeyCode, field: Field, message: string, expected?: string): RuleViolation {
  return new RuleViolation({
    code, message: `Receivable ${input.externalId}: ${message}`, external_id: input.externalId, field, loc: [...input.loc, field],
    ...(expected === undefined ? {} : { expected }),
  });
}

/** The document the key's issuer field must hold: the CNPJ, or a CPF issuer (rural producer) padded with three zeros. */
const issuerField = (assignor: TaxDocument) => (assignor.kind === 'cnpj' ? assignor.value : `000${assignor.value}`);

/** A number or serie sent as digits equals the key's field when their values are equal (leading zeros do not count). */
const sameNumber = (sent: string, inKey: string) => /^\d{1,9}$/.test(sent.trim()) && Number(sent.trim()) === Number(inKey);

/**
 * The rules of the key, in the order a client fixes them: shape, check digit, model, issuer, then
 * the fields sent beside it. `assignor` null means unknown (a simulation without one): the issuer
 * is then not compared. Throws the first failure (422, its own code).
 */
export function checkNfeKey(input: NfeInput, assignor: TaxDocument | null): NfeKeyParts {
  const { key } = input;
  if (!SHAPE.test(key)) {
    throw refusal(input, 'NFE_KEY_MALFORMED', 'nfe_key', 'nfe_key must have 44 digits (the issuer CNPJ inside it may be alphanumeric)');
  }
  const digit = String(nfeCheckDigit(key.slice(0, 43)));
  if (key[43] !== digit) throw refusal(input, 'NFE_KEY_CHECK_DIGIT_MISMATCH', 'nfe_key', 'the check digit of nfe_key does not match (modulo 11)', digit);
  const parts = partsOf(key);
  if (!ACCEPTED_MODELS.includes(parts.model)) {
    throw refusal(input, 'NFE_KEY_MODEL_NOT_ACCEPTED', 'nfe_key', `nfe_key is of model ${parts.model}; only NF-e (55) and NFC-e (65) are accepted`, ACCEPTED_MODELS.join(' or '));
  }
  if (assignor && parts.issuer !== issuerField(assignor)) {
    throw refusal(input, 'NFE_KEY_ISSUER_MISMATCH', 'nfe_key', 'the issuer inside nfe_key is not the assignor');
  }
  if (input.number != null && !sameNumber(input.number, parts.number)) {
    throw refusal(input, 'NFE_NUMBER_MISMATCH', 'nfe_number', 'nfe_number does not agree with nfe_key', String(Number(parts.number)));
  }
  if (input.serie != null && !sameNumber(input.serie, parts.serie)) {
    throw refusal(input, 'NFE_SERIE_MISMATCH', 'nfe_serie', 'nfe_serie does not agree with nfe_key', String(Number(parts.serie)));
  }
  const month = `20${parts.yearMonth.slice(0, 2)}-${parts.yearMonth.slice(2)}`;
  if (input.issueDate != null && input.issueDate.slice(0, 7) !== month) {
    throw refusal(input, 'NFE_ISSUE_DATE_MISMATCH', 'nfe_issue_date', `nfe_issue_date is not in the month the key was issued (${month})`, month);
  }
  return parts;
}

/** A key from its parts with the right check digit (test data, benches, fixtures). */
export function composeNfeKey(parts: { uf?: string; yearMonth: string; issuer: string; model?: string; serie: number; number: number; emission?: string; code: string }): string {
  const first43 = `${parts.uf ?? '35'}${parts.yearMonth}${parts.issuer}${parts.model ?? '55'}${String(parts.serie).padStart(3, '0')}`
    + `${String(parts.number).padStart(9, '0')}${parts.emission ?? '1'}${parts.code.padStart(8, '0')}`;
  return `${first43}${nfeCheckDigit(first43)}`;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The NF-e fields of one receivable as sent, read from the body once (what a text field is not, is absent). */
export interface SentNfe {
  number: string | null;
  serie: string | null;
  key: string | null;
  issueDate: string | null;
  /** A MoneyInput as the body sent it (a JSON number or a decimal string), as text. */
  totalValue: string | null;
}

export function readSentNfe(raw: Record<string, unknown>): SentNfe {
  return {
    number: text(raw.nfe_number), serie: text(raw.nfe_serie), key: text(raw.nfe_key), issueDate: text(raw.nfe_issue_date),
    totalValue: raw.nfe_total_value == null ? null : String(raw.nfe_total_value),
  };
}

/** The NF-e fields of one receivable or stock item, checked when a key is present. Returns the key in its stored form, or null. */
export function checkSentNfe(sent: SentNfe, at: { externalId: string; loc: (string | number)[] }, assignor: TaxDocument | null): string | null {
  if (sent.key === null) return null;
  const key = normaliseNfeKey(sent.key);
  checkNfeKey({ ...at, key, number: sent.number, serie: sent.serie, issueDate: sent.issueDate }, assignor);
  return key;
}

/** `checkSentNfe` on the fields of a body as sent (`nfe_key`, `nfe_number`, `nfe_serie`, `nfe_issue_date`). */
export function checkReceivableNfe(raw: Record<string, unknown>, at: { externalId: string; loc: (string | number)[] }, assignor: TaxDocument | null): string | null {
  return checkSentNfe(readSentNfe(raw), at, assignor);
}
