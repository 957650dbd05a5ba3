import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a provider proves a callback is its own: `X-Provider-Signature: v1=<hex>`, the
 * HMAC-SHA256 of `<timestamp>.<raw body>` keyed with that provider's secret, and
 * `X-Provider-Timestamp` in Unix seconds. The timestamp bounds replays to the tolerance window;
 * the api records each signature it accepted, so a replay inside the window does nothing twice.
 */
export const SIGNATURE_HEADER = 'X-Provider-Signature';
export const TIMESTAMP_HEADER = 'X-Provider-Timestamp';

function digest(secret: string, timestamp: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function providerSignatureHeaders(secret: string, body: string, nowSeconds: number): Record<string, string> {
  const timestamp = String(nowSeconds);
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: `v1=${digest(secret, timestamp, body)}` };
}

export type SignatureVerdict = { ok: true; signature: string } | { ok: false; code: 'callback_signature_missing' | 'callback_signature_invalid' | 'callback_signature_stale' };

export function verifyProviderSignature(input: {
  secret: string;
  signature: string | undefined;
  timestamp: string | undefined;
  body: Buffer;
  nowSeconds: number;
  toleranceSeconds: number;
}): SignatureVerdict {
  if (!input.signature || !input.timestamp) return { ok: false, code: 'callback_signature_missing' };
  const given = /^v1=([0-9a-f]{64})$/.exec(input.signature)?.[1];
  if (!given || !/^\d{1,12}$/.test(input.timestamp)) return { ok: false, code: 'callback_signature_invalid' };
  const expected = digest(input.secret, input.timestamp, input.body);
  if (!timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'))) return { ok: false, code: 'callback_signature_invalid' };
  // Checked after the MAC, so a forger learns nothing from the answer about the window.
  if (Math.abs(input.nowSeconds - Number(input.timestamp)) > input.toleranceSeconds) return { ok: false, code: 'callback_signature_stale' };
  return { ok: true, signature: given };
}
