import { request as undiciRequest, type Dispatcher } from 'undici';

/**
 * JSON over HTTP to one external provider, shared by the e-sign and PIX adapters. The timeout
 * covers the whole exchange (headers and body); every failure, including a reply of the wrong
 * shape, becomes the caller's typed error, so no provider payload escapes an adapter.
 */
export type Fail = (message: string, providerStatus: number | null, refusalCode: string | null) => Error;

export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  /** An OAuth2 bearer token (API Pix). */
  bearer?: string;
}

/** A request path from raw segments, each escaped (ids come from providers and callers). */
export const pathOf = (...segments: string[]) => `/${segments.map(encodeURIComponent).join('/')}`;

/** Safe reads of a provider reply; a missing or mistyped field throws with its path. */
export class Reader {
  constructor(private readonly value: unknown, private readonly path = 'reply') {}

  at(key: string): Reader {
    const inner = this.value && typeof this.value === 'object' ? (this.value as Record<string, unknown>)[key] : undefined;
    return new Reader(inner, `${this.path}.${key}`);
  }

  /** The raw value (a number, say); undefined when absent. */
  raw(): unknown {
    return this.value;
  }

  text(): string {
    if (typeof this.value !== 'string') throw new Error(`${this.path} is not a string`);
    return this.value;
  }

  /** Money stays a string with exactly two decimals; it is never read as a number. */
  money(): string {
    const text = this.text();
    if (!/^-?\d+\.\d{2}$/.test(text)) throw new Error(`${this.path} is not an amount with two decimals`);
    return text;
  }

  moneyOrNull(): string | null {
    return this.value === null || this.value === undefined ? null : this.money();
  }

  flag(): boolean {
    if (typeof this.value !== 'boolean') throw new Error(`${this.path} is not a boolean`);
    return this.value;
  }

  textOrNull(): string | null {
    return this.value === null || this.value === undefined ? null : this.text();
  }

  list(): Reader[] {
    if (!Array.isArray(this.value)) throw new Error(`${this.path} is not a list`);
    return this.value.map((item, index) => new Reader(item, `${this.path}[${index}]`));
  }
}

/**
 * Why no answer came: a timeout, a failed TLS handshake, or the connection's own error. Under TLS
 * 1.3 a server that wants a client certificate (mutual TLS) finishes the handshake, then closes
 * the connection when none or a stranger's came: the client only sees it closed, hence the hint.
 */
export function unreachable(err: unknown, timeoutMs: number, url: string): string {
  if ((err as Error).name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as { code?: string }).code ?? cause?.message ?? (err as Error).message;
  if (/CERT|SSL|TLS/.test(code)) return `TLS handshake failed (${code}): check the client certificate, key and CA configured for this provider`;
  if (url.startsWith('https:') && ['UND_ERR_SOCKET', 'ECONNRESET'].includes(code)) {
    return `connection closed without an answer (${code}): if the provider requires mutual TLS, check the client certificate and key configured for it`;
  }
  return `unreachable (${code})`;
}

/** One HTTP exchange: the status and the whole body as text, or a throw when no answer came within `timeoutMs`. */
export interface Exchange {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  dispatcher?: Dispatcher;
}

/**
 * undici's own `request` rather than the global `fetch`: it costs a fraction of the CPU per call
 * (no WHATWG Request, Headers and stream objects), and every check of an operation is dozens of
 * calls. It follows no redirect, which no provider of ours is expected to send.
 */
export async function exchange(url: string, call: Exchange): Promise<{ status: number; text: string }> {
  const response = await undiciRequest(url, {
    method: call.method as Dispatcher.HttpMethod,
    headers: call.headers,
    body: call.body,
    signal: AbortSignal.timeout(call.timeoutMs),
    ...(call.dispatcher ? { dispatcher: call.dispatcher } : {}),
  });
  return { status: response.statusCode, text: await response.body.text() };
}

/** Our providers' `{error: {code, message}}`, or API Pix's problem+json `{type, title, detail}`; the code for a caller that tells refusals apart. */
function refusal(status: number, text: string): { message: string; code: string | null } {
  try {
    const reply = new Reader(JSON.parse(text));
    try {
      const error = reply.at('error');
      const code = error.at('code').text();
      return { message: `provider answered ${status} ${code}: ${error.at('message').text()}`, code };
    } catch {
      return { message: `provider answered ${status} ${reply.at('type').text()}: ${reply.at('detail').text()}`, code: null };
    }
  } catch {
    return { message: `provider answered ${status}`, code: null };
  }
}

export class ProviderHttp {
  private readonly baseUrl: string;

  /** `dispatcher`: the connection pool to use, one presenting a client certificate for mutual TLS. */
  constructor(baseUrl: string, private readonly timeoutMs: number, private readonly dispatcher?: Dispatcher) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async call<T>(request: ProviderRequest, parse: (reply: Reader) => T, fail: Fail): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey;
    if (request.bearer) headers.Authorization = `Bearer ${request.bearer}`;
    let status: number;
    let text: string;
    try {
      ({ status, text } = await exchange(`${this.baseUrl}${request.path}`, {
        method: request.method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body), timeoutMs: this.timeoutMs, dispatcher: this.dispatcher,
      }));
    } catch (err) {
      throw fail(unreachable(err, this.timeoutMs, this.baseUrl), null, null);
    }
    if (status < 200 || status > 299) {
      const refused = refusal(status, text);
      throw fail(refused.message, status, refused.code);
    }
    try {
      return parse(new Reader(JSON.parse(text)));
    } catch (err) {
      // Not a refusal: what happened is unknown, so it is treated like no answer (retry with the same key).
      throw fail(`unexpected reply to a ${status}: ${(err as Error).message}`, null, null);
    }
  }
}
