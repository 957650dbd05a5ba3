import { createHash } from 'node:crypto';
import { canonicalJson } from '../../domain/canonical-json';

export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body ?? null)).digest('hex');
}

/** The contract's one-time secrets: shown once, null in any replay (and never stored in clear). */
const ONE_TIME_SECRETS = new Set(['hmac_secret', 'access_token', 'client_secret', 'signer_token', 'sign_url']);

/** The JSON text to store for a replay: the response as sent, with the one-time secrets nulled at any depth. */
export function replayableJson(body: unknown): string {
  return JSON.stringify(body, (name, value) => (ONE_TIME_SECRETS.has(name) && value !== undefined ? null : value));
}
