import { signatureHeaders } from '../domain/webhook-signature';
import type { ListedEvent } from './event-feed';

/** The local receiver's answer: its status, or why there was none. */
export type LocalAnswer = { status: number } | { error: string };

const TIMEOUT_MS = 10_000;

/**
 * POSTs one event to the local URL as a real delivery would: the same envelope bytes, the
 * contract's `X-Service-Signature` and the Standard Webhooks headers, keyed with the listener's secret.
 */
export async function forwardEvent(url: string, secret: string, event: ListedEvent): Promise<LocalAnswer> {
  const body = JSON.stringify(event);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'receivables-anticipation-cli',
    ...signatureHeaders({ secrets: [secret], messageId: event.event_id, timestamp: Math.floor(Date.now() / 1000), body }),
  };
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
    await response.arrayBuffer();
    return { status: response.status };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return { error: cause?.code ?? (err as Error).name };
  }
}
