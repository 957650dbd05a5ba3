import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/**
 * A real HTTPS webhook receiver inside the test process, with a certificate from a CA made for
 * this run (trusted by the worker through WEBHOOKS_EXTRA_CA_PEM, as dev/test configuration may).
 * Node's crypto cannot build X.509 certificates, hence the `selfsigned` dev dependency.
 */
export const RECEIVER_HOST = 'receiver.test';

export interface TestCa {
  caPem: string;
  certPem: string;
  keyPem: string;
}

let ca: Promise<TestCa> | undefined;

export function testCa(): Promise<TestCa> {
  ca ??= (async () => {
    // EC keys: quick to make, and cheap handshakes when the bench sends 25 deliveries a second.
    const root = await generate([{ name: 'commonName', value: 'Webhook Test CA' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }],
    });
    const leaf = await generate([{ name: 'commonName', value: RECEIVER_HOST }], {
      keyType: 'ec',
      algorithm: 'sha256',
      ca: { key: root.private, cert: root.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: RECEIVER_HOST }, { type: 7, ip: '127.0.0.1' }] },
      ],
    });
    return { caPem: root.cert, certPem: leaf.cert, keyPem: leaf.private };
  })();
  return ca;
}

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  body: any;
  receivedAt: number;
}

/** How to answer the n-th request (from 1): a status, a status with headers, or never. */
export type Answer = number | { status: number; headers: Record<string, string> } | 'hang';

export interface TestReceiver {
  readonly requests: ReceivedRequest[];
  url(path?: string): string;
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** `certificate`: what the receiver serves instead of the test CA's certificate (a self-signed one, the dev CA's). */
export async function startReceiver(answer: (n: number) => Answer | Promise<Answer> = () => 200, certificate?: { certPem: string; keyPem: string }): Promise<TestReceiver> {
  const { certPem, keyPem } = certificate ?? await testCa();
  const requests: ReceivedRequest[] = [];
  const server = https.createServer({ cert: certPem, key: keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks);
      requests.push({ headers: req.headers, rawBody, body: JSON.parse(rawBody.toString('utf8')), receivedAt: Date.now() });
      const reply = await answer(requests.length);
      if (reply === 'hang') return;
      const { status, headers } = typeof reply === 'number' ? { status: reply, headers: {} } : reply;
      res.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    requests,
    url: (path = '/hooks') => `https://${RECEIVER_HOST}:${port}${path}`,
    async waitForRequests(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return requests.slice(0, count);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
