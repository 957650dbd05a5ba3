/**
 * JSON with object keys sorted at every depth, so a hash over it depends on neither key order nor
 * whitespace (jsonb gives keys back in its own order; clients send them in theirs). A `Date` is its
 * ISO string, as `JSON.stringify` writes it, never an empty object; `undefined` properties are left
 * out and an `undefined` value is `null`. Stored hashes (the audit chain, idempotency keys) depend
 * on this text: change it only with a migration of what they cover.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value).filter(([, inner]) => inner !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
