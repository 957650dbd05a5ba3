/**
 * Bounds a string's format or an integer's range already imply, stated where the schema is, for
 * clients and for linters (Spectral OWASP api4): a `uuid` is 36 characters, a `date` 10 and a
 * `date-time` at most 35 (what `domain/timestamps.ts` accepts: 9 decimals and an offset); an
 * integer bounded within 32 bits is `int32`, any other `int64` (counts, sequences, cents: what
 * generators should hold them in). The validator already refuses what breaks the format
 * or range, so these keywords refuse nothing new; stated once here rather than at each of the
 * hundreds of places that write `format: 'uuid'`.
 */
import type { Schema } from '../openapi/helpers';

const FORMAT_MAX_LENGTH = new Map<unknown, number>([['uuid', 36], ['date', 10], ['date-time', 35]]);
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

const hasType = (schema: Schema, type: string) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

function bound(schema: Schema): void {
  const length = FORMAT_MAX_LENGTH.get(schema.format);
  if (length !== undefined && hasType(schema, 'string') && schema.maxLength === undefined) schema.maxLength = length;
  if (hasType(schema, 'integer') && schema.format === undefined) {
    const int32 = typeof schema.minimum === 'number' && schema.minimum >= INT32.min && typeof schema.maximum === 'number' && schema.maximum <= INT32.max;
    schema.format = int32 ? 'int32' : 'int64';
  }
}

/** A copy of `document` with the implied bounds on every schema (the sections' schema objects are shared, so never changed). */
export function withFormatBounds<T>(document: T): T {
  const copy = structuredClone(document);
  const seen = new Set<object>();
  const pending: unknown[] = [copy];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node)) bound(node as Schema);
    pending.push(...Object.values(node));
  }
  return copy;
}
