import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth: key order and whitespace no longer matter. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body ?? null)).digest('hex');
}

/** The contract's one-time secrets: shown once, null in any replay (and never stored in clear). */
const ONE_TIME_SECRETS = new Set(['hmac_secret', 'access_token', 'client_secret', 'signer_token', 'sign_url']);

/** The JSON text to store for a replay: the response as sent, with the one-time secrets nulled at any depth. */
export function replayableJson(body: unknown): string {
  return JSON.stringify(body, (name, value) => (ONE_TIME_SECRETS.has(name) && value !== undefined ? null : value));
}
