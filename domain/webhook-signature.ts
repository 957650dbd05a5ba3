import { createHmac, randomBytes } from 'node:crypto';

/**
 * How deliveries are signed. Secrets have the Standard Webhooks form (`whsec_` + base64 key) so
 * that its libraries verify our `webhook-signature` unchanged; the contract's
 * `X-Service-Signature` is keyed with the secret string exactly as the integrator received it.
 */
const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** Contract delivery rule 1: hex HMAC-SHA256 of the exact body bytes sent. */
export function serviceSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/** Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the decoded secret. */
export function standardSignature(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

/**
 * The signature headers of one attempt. `secrets` starts with the current secret; during a
 * rotation overlap the previous one follows, and `webhook-signature` lists a signature for each
 * (space-separated, as Standard Webhooks defines) so a receiver holding either one verifies.
 */
export function signatureHeaders(input: { secrets: string[]; messageId: string; timestamp: number; body: string }): Record<string, string> {
  const { secrets, messageId, timestamp, body } = input;
  return {
    'X-Service-Signature': serviceSignature(secrets[0], body),
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => standardSignature(secret, messageId, timestamp, body)).join(' '),
  };
}
