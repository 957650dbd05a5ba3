/**
 * A webhook receiver that verifies every delivery with the official Standard Webhooks library
 * before reading it. Run it behind HTTPS (the API delivers to HTTPS URLs only):
 *   HMAC_SECRET=whsec_... PORT=8443 TLS_CERT=cert.pem TLS_KEY=key.pem npx tsx examples/typescript-client/webhook-receiver.ts
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface WebhookEvent {
  event_type: string;
  event_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

/** The `whsec_…` secret, or where to read it (a secret store), since it exists only once the URL is registered. */
export type SecretSource = string | (() => string);

/**
 * A request handler: 401 for anything that does not verify (nothing is parsed), 204 for a
 * delivery that does, then `onEvent` once per `event_id` (a retried delivery carries the same id).
 */
export function webhookHandler(secret: SecretSource, onEvent: (event: WebhookEvent) => void) {
  const verifier = () => new Webhook(typeof secret === 'string' ? secret : secret());
  const seen = new Set<string>();
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let event: WebhookEvent;
      try {
        // The raw bytes as received: re-serialized JSON would not verify.
        event = verifier().verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>) as WebhookEvent;
      } catch {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(204).end();
      if (seen.has(event.event_id)) return;
      seen.add(event.event_id);
      onEvent(event);
    });
  };
}

export async function startWebhookReceiver(options: { secret: SecretSource; cert: string; key: string; port?: number; host?: string; onEvent: (event: WebhookEvent) => void }) {
  const server = https.createServer({ cert: options.cert, key: options.key }, webhookHandler(options.secret, options.onEvent));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

if (require.main === module) {
  const env = process.env;
  if (!env.HMAC_SECRET || !env.TLS_CERT || !env.TLS_KEY) {
    console.error('set HMAC_SECRET (from POST /v1/webhooks), TLS_CERT and TLS_KEY (PEM files)');
    process.exit(1);
  }
  startWebhookReceiver({
    secret: env.HMAC_SECRET, cert: readFileSync(env.TLS_CERT, 'utf8'), key: readFileSync(env.TLS_KEY, 'utf8'), port: Number(env.PORT ?? 8443), host: env.HOST ?? '0.0.0.0',
    onEvent: (event) => console.log(`${event.occurred_at} ${event.event_type} ${JSON.stringify(event.data)}`),
  }).then(({ port }) => console.log(`verifying deliveries on https://localhost:${port}`));
}
