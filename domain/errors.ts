/**
 * The small set of failures the service can answer with. Each renders the contract's error
 * envelope (`{detail: ...}`) through `toBody()`; the api's error handler is the only place that
 * turns them into HTTP responses. Domain code throws them without knowing about HTTP.
 */
export type Detail = string | { code: string; message?: string; [key: string]: unknown };

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: Detail,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : `${detail.code}: ${detail.message ?? ''}`);
    this.name = new.target.name;
  }

  toBody(): { detail: Detail } {
    return { detail: this.detail };
  }
}

/** An error's code: its detail when a string, else the structured detail's `code`. */
export function errorCode(error: AppError): string {
  return typeof error.detail === 'string' ? error.detail : error.detail.code;
}

export interface FieldError {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Schema failure: 422 `validation_error` with FastAPI-style `errors[]`. */
export class ValidationFailed extends AppError {
  constructor(readonly errors: FieldError[], message = 'Request validation failed') {
    super(422, { code: 'validation_error', message, errors });
  }

  static field(loc: (string | number)[], msg: string, type = 'value_error', input?: unknown): ValidationFailed {
    return new ValidationFailed([{ loc, msg, type, ...(input === undefined ? {} : { input }) }]);
  }
}

/** A business rule refused the request (422 by default), with a string or structured detail. */
export class RuleViolation extends AppError {
  constructor(detail: Detail, status = 422) {
    super(status, detail);
  }
}

export class NotAuthenticated extends AppError {
  constructor(code: string, headers: Record<string, string> = {}) {
    super(401, code, headers);
  }
}

export class Forbidden extends AppError {
  constructor(detail: Detail, headers: Record<string, string> = {}) {
    super(403, detail, headers);
  }
}

export class NotFound extends AppError {
  constructor(code: string) {
    super(404, code);
  }
}

/** The path exists with other methods: 405 with the `Allow` header listing them. */
export class MethodNotAllowed extends AppError {
  constructor(allowed: string[]) {
    super(405, 'method_not_allowed', { Allow: allowed.join(', ') });
  }
}

export class Conflict extends AppError {
  constructor(detail: Detail) {
    super(409, detail);
  }
}

export class Locked extends AppError {
  constructor(code: string) {
    super(423, code);
  }
}

export class RateLimited extends AppError {
  constructor(detail: Detail, headers: Record<string, string>) {
    super(429, detail, headers);
  }
}

/** An external provider failed (e-signature): 502, retryable with backoff. */
export class ProviderFailed extends AppError {
  constructor(code: string) {
    super(502, code);
  }
}

/** An internal dependency is down: 503, retryable with backoff. */
export class Unavailable extends AppError {
  constructor(detail: Detail) {
    super(503, detail);
  }
}
