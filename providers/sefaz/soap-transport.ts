import type { Dispatcher } from 'undici';
import { setTimeout as sleep } from 'node:timers/promises';
import { soapContentType } from '../../platform/xml/soap';
import { isTransient, SefazError } from '../provider-errors';
import { exchange, unreachable } from '../provider-http';

export interface SoapCall {
  url: string;
  action: string;
  envelope: string;
  dispatcher: Dispatcher | undefined;
}

export interface RetrySettings {
  timeoutMs: number;
  attempts: number;
  /** The first pause between attempts; each next one doubles it. */
  backoffMs: number;
}

/**
 * One SOAP 1.2 exchange with SEFAZ, tried again with doubling pauses when nothing usable came back
 * (no answer, 5xx). A 4xx is not worth repeating. SEFAZ answers its own refusals (cStat) with 200,
 * so every business answer reaches `read`; a reply `read` cannot parse is SEFAZ's failure too.
 */
export async function soapExchange<T>(call: SoapCall, settings: RetrySettings, read: (text: string) => T): Promise<T> {
  let last: SefazError | null = null;
  for (let attempt = 0; attempt < settings.attempts; attempt += 1) {
    if (attempt > 0) await sleep(settings.backoffMs * 2 ** (attempt - 1));
    try {
      return read(await post(call, settings.timeoutMs));
    } catch (err) {
      last = err instanceof SefazError ? err : new SefazError('sefaz_unavailable', `unreadable answer from ${call.url}: ${(err as Error).message}`, null);
      if (!last.retryable) throw last;
    }
  }
  throw last ?? new SefazError('sefaz_unavailable', 'no attempt made', null);
}

async function post(call: SoapCall, timeoutMs: number): Promise<string> {
  let status: number;
  let text: string;
  try {
    ({ status, text } = await exchange(call.url, {
      method: 'POST', headers: { 'Content-Type': soapContentType(call.action), Accept: 'application/soap+xml' }, body: call.envelope, timeoutMs, dispatcher: call.dispatcher,
    }));
  } catch (err) {
    throw new SefazError('sefaz_unavailable', `${call.url}: ${unreachable(err, timeoutMs, call.url)}`, null);
  }
  if (status < 200 || status > 299) {
    const transient = isTransient(status);
    throw new SefazError('sefaz_unavailable', `${call.url} answered ${status}${transient ? '' : ' (not retried)'}`, status);
  }
  return text;
}
