import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function shut(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A tiny HTTP receiver for provider callbacks: records every attempt, can refuse the first few. */
export class CallbackReceiver {
  readonly attempts: unknown[] = [];
  readonly accepted: unknown[] = [];
  /** Every attempt as it came over the wire, for a test that checks its signature. */
  readonly deliveries: { raw: Buffer; headers: IncomingMessage['headers'] }[] = [];
  private refusals = 0;
  private readonly server = createServer((req, res) => this.receive(req, res));
  url = '';

  static async start(): Promise<CallbackReceiver> {
    const receiver = new CallbackReceiver();
    receiver.url = await listen(receiver.server);
    return receiver;
  }

  refuseNext(count: number): void {
    this.refusals = count;
  }

  /** The first accepted callback matching `predicate`, waiting for it to arrive. */
  async next<T = Record<string, unknown>>(predicate: (body: T) => boolean = () => true, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (this.accepted as T[]).find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching callback within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): Promise<void> {
    return shut(this.server);
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    this.deliveries.push({ raw: Buffer.concat(chunks), headers: req.headers });
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    this.attempts.push(body);
    if (this.refusals > 0) {
      this.refusals -= 1;
      res.writeHead(503).end();
      return;
    }
    this.accepted.push(body);
    res.writeHead(204).end();
  }
}

/** A server that accepts connections and never answers, to prove the adapters' timeouts. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(() => undefined);
  const url = await listen(server);
  return { url, close: () => shut(server) };
}

/** Signs as a person would, through the CLI's own `trigger` code (the page's form, its action and button value). */
export { signingForm, signThroughPage } from '../../cli/sandbox-signing';

/** Expects `promise` to reject and returns what it rejected with. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection, but it resolved');
}

/** Unique per test, so `+tag`s give magic values fresh counters and keys never collide. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
