import { ValidationFailed } from './errors';

/**
 * What makes two receivables the same invoice (docs/decisions.md, "Double assignment"): the NF-e
 * access key when there is one; otherwise the backing type, the payer's document, the due date and
 * the backing's own number (NF-e number and serie, else `identifier`). A receivable with none of
 * those cannot be told apart from another of the same payer and day, so it has no fingerprint and
 * is not guarded.
 */
export interface ReceivableIdentity {
  nfeKey: string | null;
  backingType: string;
  payerDocument: string;
  dueDate: string;
  nfeNumber: string | null;
  nfeSerie: string | null;
  identifier: string | null;
}

const filled = (value: string | null | undefined): string | null => (value == null || value.trim() === '' ? null : value.trim());
/** "000123" and "123" are the same NF-e number. */
const numeric = (value: string) => (/^\d+$/.test(value) ? String(Number(value)) : value.toUpperCase());

export function receivableFingerprint(r: ReceivableIdentity): string | null {
  if (r.nfeKey) return `nfe:${r.nfeKey}`;
  const number = filled(r.nfeNumber);
  const identifier = filled(r.identifier);
  const own = number ? `nf:${numeric(number)}-${numeric(filled(r.nfeSerie) ?? '0')}` : identifier ? `id:${identifier}` : null;
  return own && `ref:${r.backingType.trim().toUpperCase()}|${r.payerDocument}|${r.dueDate}|${own}`;
}

/** The NF-e key inside a fingerprint, for the signal across originators (only keys are compared there). */
export const keyOfFingerprint = (fingerprint: string): string | null => (fingerprint.startsWith('nfe:') ? fingerprint.slice(4) : null);

/** One request carrying the same receivable twice is refused like a repeated `external_id`, before any write. */
export function refuseRepeatedReceivables(fingerprints: readonly (string | null)[], loc: (i: number) => (string | number)[]): void {
  const first = new Map<string, number>();
  const errors = fingerprints.flatMap((fingerprint, i) => {
    if (fingerprint === null) return [];
    const earlier = first.get(fingerprint);
    if (earlier === undefined) { first.set(fingerprint, i); return []; }
    return [{ loc: loc(i), msg: `The same receivable as item ${earlier} of this request (${fingerprint.startsWith('nfe:') ? 'same nfe_key' : 'same payer, due date and number'})`, type: 'value_error' }];
  });
  if (errors.length > 0) throw new ValidationFailed(errors);
}
