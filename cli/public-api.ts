import { randomUUID } from 'node:crypto';

/** Where the CLI reaches the api, and as whom: an integrator's client credentials, nothing else. */
export interface Connection {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/** A refusal of the api, in its own words: the CLI prints it and stops. */
export class ApiRefusal extends Error {
  constructor(readonly method: string, readonly path: string, readonly answer: ApiAnswer) {
    super(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

/**
 * The public API as an integrator calls it: a token from the client credentials, taken again when
 * it expires (or is refused), and an `Idempotency-Key` on every POST so a retried command never
 * acts twice.
 */
export class PublicApi {
  private token: { value: string; until: number } | null = null;

  constructor(private readonly connection: Connection) {}

  get url(): string {
    return this.connection.apiUrl;
  }

  async get<T>(path: string): Promise<T> {
    return this.expect('GET', path, undefined, 200);
  }

  async post<T>(path: string, body: unknown, status = 201): Promise<T> {
    return this.expect('POST', path, body, status);
  }

  /** The answer whatever its status: for callers that wait for a state, where a 404 or 409 means "not yet". */
  async call<T>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> {
    const first = await this.send<T>(method, path, body);
    if (first.status !== 401) return first;
    this.token = null;
    return this.send<T>(method, path, body);
  }

  private async expect<T>(method: string, path: string, body: unknown, status: number): Promise<T> {
    const answer = await this.call<T>(method, path, body);
    if (answer.status !== status) throw new ApiRefusal(method, path, answer);
    return answer.body;
  }

  private async send<T>(method: string, path: string, body: unknown): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { Authorization: `Bearer ${await this.bearer()}` };
    if (method === 'POST') Object.assign(headers, { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() });
    const response = await fetch(`${this.connection.apiUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  private async bearer(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const { clientId, clientSecret, apiUrl } = this.connection;
    const response = await fetch(`${apiUrl}/v1/auth/token`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
    });
    const body = await response.json() as { access_token: string; expires_in: number };
    if (response.status !== 200) throw new ApiRefusal('POST', '/v1/auth/token', { status: response.status, body });
    // A minute early, so a token never expires between this check and the call.
    this.token = { value: body.access_token, until: Date.now() + (body.expires_in - 60) * 1000 };
    return this.token.value;
  }
}
