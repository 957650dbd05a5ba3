import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../platform/logger';

/** A provider-style refusal: `{error: {code, message}}` with its status. */
export class Refusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export function notFound(what: string): Refusal {
  return new Refusal(404, 'not_found', `${what} not found`);
}

export function sandboxErrors(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    let refusal: Refusal;
    if (err instanceof Refusal) refusal = err;
    else if ((err as { type?: string }).type === 'entity.parse.failed') refusal = new Refusal(400, 'invalid_json', 'body is not valid JSON');
    else {
      logger.error('sandbox failure', { err: (err as Error).message, stack: (err as Error).stack });
      refusal = new Refusal(500, 'internal_error', 'unexpected sandbox failure');
    }
    res.status(refusal.status).json({ error: { code: refusal.code, message: refusal.message } });
  };
}

type Body = Record<string, unknown>;

export function asBody(value: unknown, what = 'body'): Body {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Refusal(400, 'invalid_request', `${what} must be an object`);
  return value as Body;
}

export function requiredText(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw new Refusal(400, 'invalid_request', `${field} is required`);
  return value;
}

export function optionalText(body: Body, field: string): string | null {
  return body[field] === undefined || body[field] === null ? null : requiredText(body, field);
}

export function oneOf<T extends string>(body: Body, field: string, allowed: readonly T[]): T {
  const value = body[field];
  if (!allowed.includes(value as T)) throw new Refusal(400, 'invalid_request', `${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function optionalFlag(body: Body, field: string): boolean {
  const value = body[field] ?? false;
  if (typeof value !== 'boolean') throw new Refusal(400, 'invalid_request', `${field} must be a boolean`);
  return value;
}

export function list(body: Body, field: string): Body[] {
  const value = body[field];
  if (!Array.isArray(value) || value.length === 0) throw new Refusal(400, 'invalid_request', `${field} must be a non-empty list`);
  return value.map((item, index) => asBody(item, `${field}[${index}]`));
}

export function optionalUrl(body: Body, field: string): string | null {
  const value = optionalText(body, field);
  if (value !== null && !URL.canParse(value)) throw new Refusal(400, 'invalid_request', `${field} must be an absolute URL`);
  return value;
}

/** What an idempotency key has already produced, so a repeated request gets the first answer. */
export class Replays<T> {
  private readonly done = new Map<string, T>();

  run(key: string | null, make: () => T): { value: T; replayed: boolean } {
    const earlier = key === null ? undefined : this.done.get(key);
    if (earlier !== undefined) return { value: earlier, replayed: true };
    const value = make();
    if (key !== null) this.done.set(key, value);
    return { value, replayed: false };
  }

  forget(key: string): void {
    this.done.delete(key);
  }

  entries(): [string, T][] {
    return [...this.done.entries()];
  }

  restore(key: string, value: T): void {
    this.done.set(key, value);
  }
}
