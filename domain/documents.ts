import { ValidationFailed } from './errors';

export type DocumentKind = 'cpf' | 'cnpj';

export interface TaxDocument {
  kind: DocumentKind;
  /** Without punctuation: digits, or upper-case letters and digits for the alphanumeric CNPJ. */
  value: string;
}

const PUNCTUATION = /[.\-/\s]/g;
const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** Modulo-11 check digit; characters are valued as ASCII − 48, which keeps digits as they are. */
function checkDigit(body: string, weights: number[]): number {
  const sum = weights.reduce((acc, weight, i) => acc + (body.charCodeAt(i) - 48) * weight, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const first = checkDigit(digits, CPF_WEIGHTS_1);
  const second = checkDigit(digits, [11, ...CPF_WEIGHTS_1]);
  return digits.endsWith(`${first}${second}`);
}

/** Numeric CNPJ and the alphanumeric one (12 characters [0-9A-Z] + 2 numeric check digits). */
export function isValidCnpj(value: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value) || /^(\d)\1{13}$/.test(value)) return false;
  const first = checkDigit(value, CNPJ_WEIGHTS_1);
  const second = checkDigit(value, [6, ...CNPJ_WEIGHTS_1]);
  return value.endsWith(`${first}${second}`);
}

/** A valid CNPJ from its first twelve characters: they, then their two check digits. */
export function completeCnpj(base: string): string {
  const first = checkDigit(base, CNPJ_WEIGHTS_1);
  return `${base}${first}${checkDigit(`${base}${first}`, [6, ...CNPJ_WEIGHTS_1])}`;
}

/** Strips punctuation and upper-cases letters: the stored form of a document. */
export function stripDocument(raw: string): string {
  return raw.replace(PUNCTUATION, '').toUpperCase();
}

/** A CPF or CNPJ as the client wrote it, or the reason it is not one. */
export function readDocument(raw: string, accept: readonly DocumentKind[] = ['cpf', 'cnpj']): TaxDocument | { reason: string } {
  const value = stripDocument(raw);
  if (accept.includes('cpf') && /^\d{11}$/.test(value)) {
    return isValidCpf(value) ? { kind: 'cpf', value } : { reason: 'Invalid CPF: check digits do not match' };
  }
  if (accept.includes('cnpj') && value.length === 14) {
    return isValidCnpj(value) ? { kind: 'cnpj', value } : { reason: 'Invalid CNPJ: check digits do not match' };
  }
  const expected = accept.map((kind) => (kind === 'cpf' ? 'a CPF (11 digits)' : 'a CNPJ (14 characters)')).join(' or ');
  return { reason: `Input should be ${expected}; punctuation is accepted` };
}

/** A document field of a request: the document, or 422 `validation_error` at `loc` before any write. */
export function parseDocument(raw: unknown, loc: (string | number)[], accept?: readonly DocumentKind[]): TaxDocument {
  if (typeof raw !== 'string') throw ValidationFailed.field(loc, 'Input should be a valid string', 'string_type', raw);
  const read = readDocument(raw, accept);
  if ('reason' in read) throw ValidationFailed.field(loc, read.reason, 'value_error', raw);
  return read;
}

/** A document already stored (digits, or the alphanumeric CNPJ): its kind follows from its length. */
export const storedDocument = (value: string): TaxDocument => ({ kind: value.length === 11 ? 'cpf' : 'cnpj', value });
