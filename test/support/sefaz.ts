import { expect } from 'chai';
import type { ApiClient } from './http';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import { composeNfeKey } from '../../domain/nfe-key';
import { loadConfig } from '../../platform/config/config';
import { SefazClient } from '../../providers/sefaz/client';
import { minimalEnv } from './config';

/** A fresh NF-e key of the sandbox's issuer, never asked before (the sandbox keeps answers per key). */
export const freshNfeKey = (issuer = '11222333000181'): string =>
  composeNfeKey({ yearMonth: '2611', issuer, serie: 1, number: randomInt(1, 999_999_999), code: String(randomInt(0, 99_999_999)) });

/** The production adapter as the api and worker build it from their configuration, pointed at `sandboxUrl`. */
export function sefazClientFor(sandboxUrl: string, env: Record<string, string> = {}): SefazClient {
  return new SefazClient(loadConfig(minimalEnv({ SEFAZ_SANDBOX_URL: sandboxUrl, SEFAZ_BACKOFF_MS: '20', ...env })).sefaz, 'sandbox');
}

/** The element `name` as it appears in `text` (an answer taken off the wire), for validation against its XSD. */
export function elementIn(text: string, name: string): string {
  const found = new RegExp(`<${name}[\\s>][\\s\\S]*</${name}>`).exec(text);
  if (!found) throw new Error(`no <${name}> in ${text.slice(0, 200)}`);
  return found[0];
}

/**
 * An HTTP front to the sandbox SEFAZ that answers the first `failures` requests with `status` and
 * forwards the rest (each after `delayMs`), counting every request: SEFAZ failing or slow.
 */
export class FlakySefaz {
  requests = 0;
  failures = 0;
  status = 503;
  /** How long each forwarded answer is held back: SEFAZ slow. */
  delayMs = 0;
  private readonly server: Server;
  url = '';

  private constructor(target: string) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        this.requests += 1;
        if (this.failures > 0) {
          this.failures -= 1;
          res.writeHead(this.status).end();
          return;
        }
        if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
        const answer = await fetch(`${target}${req.url}`, { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' }).end(await answer.text());
      });
    });
  }

  static async start(target: string): Promise<FlakySefaz> {
    const front = new FlakySefaz(target);
    await new Promise<void>((resolve) => front.server.listen(0, '127.0.0.1', resolve));
    front.url = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
    return front;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Sets the sandbox SEFAZ's answers for `key` from now on, through its control route. */
export async function setSandboxNfe(client: ApiClient, token: string, key: string, status: string, payerEvent: string | null = null, issuerCertificate = 'delegated'): Promise<void> {
  const res = await client.post(`/v1/sandbox/nfe/${key}`, { status, payer_event: payerEvent, issuer_certificate: issuerCertificate }, { token });
  expect(res.status, res.text).to.equal(200);
}
