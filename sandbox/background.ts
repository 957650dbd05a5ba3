import type { Logger } from '../platform/logger';
import { providerSignatureHeaders } from '../domain/provider-signature';

export interface CallbackPolicy {
  attempts: number;
  retryDelayMs: number;
  timeoutMs: number;
}

/**
 * The sandbox's delayed work (settlements, callback retries), owned in one place so `close()`
 * stops all of it and a test run never leaves a timer or a request behind.
 */
export class Background {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stopped = new AbortController();

  constructor(private readonly policy: CallbackPolicy, private readonly logger: Logger) {}

  after(ms: number, task: () => void): void {
    if (this.stopped.signal.aborted) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task();
    }, ms);
    this.timers.add(timer);
  }

  /**
   * POSTs a JSON callback, retrying with doubling delays until the receiver answers 2xx; after the
   * last attempt it is logged and dropped, as a real provider would (the api also polls). Each
   * attempt is signed afresh with `secret`, so a late retry is not refused as stale.
   */
  notify(url: string, payload: object, secret: string, about: Record<string, string>, attempt = 1): void {
    this.deliver(url, payload, secret).catch((err: Error) => {
      if (this.stopped.signal.aborted) return;
      if (attempt >= this.policy.attempts) {
        this.logger.warn('sandbox callback given up', { ...about, url, attempts: attempt, err: err.message });
        return;
      }
      this.after(this.policy.retryDelayMs * 2 ** (attempt - 1), () => this.notify(url, payload, secret, about, attempt + 1));
    });
  }

  stop(): void {
    this.stopped.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async deliver(url: string, payload: object, secret: string): Promise<void> {
    const body = JSON.stringify(payload);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...providerSignatureHeaders(secret, body, Math.floor(Date.now() / 1000)) },
      body,
      signal: AbortSignal.any([this.stopped.signal, AbortSignal.timeout(this.policy.timeoutMs)]),
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`receiver answered ${response.status}`);
  }
}
