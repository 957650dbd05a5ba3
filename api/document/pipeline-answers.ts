/**
 * What the request pipeline adds to every operation's answers, stated once for the whole document:
 * the headers it sends (platform, request ids, rate limits, idempotency replays), the 503 a
 * database outage gives on any route that reaches Postgres, the 500 of a defect (always the
 * error envelope, never an HTML page), the 422 of the input guard on any route, and the body a POST without one of
 * its own accepts and ignores. The sections' `openapi.ts` files state only what their routes add.
 */
import type { Schema } from '../openapi/helpers';

const header = (description: string, schema: Schema, required = false): Schema => ({ description, required, schema });

export const pipelineHeaders = {
  'X-Request-Id': header('This request\'s id (UUIDv7), or the caller\'s own `X-Request-Id` when it sent a usable one; it names the request in our logs', { type: 'string', maxLength: 200 }, true),
  'X-Correlation-Id': header('The caller\'s `X-Correlation-Id`, or the request id: carried into workflows and webhook deliveries', { type: 'string', maxLength: 200 }, true),
  'X-Service-Env': header('The deployment\'s environment', { enum: ['prod', 'sandbox', 'dev'] }, true),
  'X-Service-API-Version': header('The version of this document the deployment serves', { type: 'string', maxLength: 20, examples: ['1.7.0'] }, true),
  'X-Service-Banner': header('Outside production only: the environment in capitals', { type: 'string', maxLength: 20, examples: ['SANDBOX'] }),
  'X-RateLimit-Limit': header('Requests per minute of the bucket: the origin address\'s on success, the one that refused on a 429', { type: 'integer', format: 'int32', minimum: 0 }),
  'X-RateLimit-Remaining': header('Requests left in that bucket\'s sliding minute (0 on a 429)', { type: 'integer', format: 'int32', minimum: 0 }),
  'Retry-After': header('Seconds to wait before the bucket admits another request', { type: 'integer', format: 'int32', minimum: 0 }, true),
  'Idempotency-Replayed': header('`true` when this answer is the stored one of an earlier request with the same `Idempotency-Key` and body', { const: 'true' }),
};

const headerRef = (name: keyof typeof pipelineHeaders) => ({ $ref: `#/components/headers/${name}` });
const PLATFORM = ['X-Request-Id', 'X-Correlation-Id', 'X-Service-Env', 'X-Service-API-Version', 'X-Service-Banner'] as const;
const MUTATING = new Set(['post', 'put', 'patch', 'delete']);
/** The contract: idempotency is ignored on the token exchange and login. */
const NO_IDEMPOTENCY = new Set(['/v1/auth/token', '/v1/auth/login']);

const databaseUnavailable = {
  description: 'database_unavailable: Postgres did not answer within the request\'s budget (1.5 s by default); nothing was done, retry with backoff',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
};

const internalError = {
  description: 'internal_error: a defect of ours, logged with the request id; nothing to change on the caller\'s side',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
};

/** api/middleware/input-guard.ts and the body parsers run before any route's own checks. */
const pipelineValidation = {
  description: 'validation_error: a NUL character in a query value, a key or a body string, JSON nested deeper than 32 levels, or a body that is not '
    + 'the JSON (or the Content-Encoding) it says, refused before the route reads anything',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
};

const ignoredBody = {
  required: false,
  description: 'Nothing is read from the body: none, or any JSON, is accepted and ignored',
  content: { 'application/json': { schema: { description: 'Ignored' } } },
};

type Response = { headers?: Record<string, unknown>; [key: string]: unknown };
type Operation = { responses?: Record<string, Response>; requestBody?: unknown; 'x-rate-limit'?: string };

/** `paths` (not changed) with the pipeline's answers added to every operation. */
export function withPipelineAnswers<T>(sectionPaths: T): T {
  const paths = structuredClone(sectionPaths) as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation.responses) continue;
      const limited = operation['x-rate-limit'] !== 'exempt';
      // Every limited route admits the request through Postgres (the rate-limit window) before anything else.
      if (limited && !operation.responses['503']) operation.responses['503'] = { ...databaseUnavailable };
      operation.responses['500'] ??= { ...internalError };
      operation.responses['422'] ??= { ...pipelineValidation };
      if (method === 'post' && !operation.requestBody) operation.requestBody = ignoredBody;
      const replayable = MUTATING.has(method) && path.startsWith('/v1/') && !NO_IDEMPOTENCY.has(path);
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers: Record<string, unknown> = Object.fromEntries(PLATFORM.map((name) => [name, headerRef(name)]));
        if (limited) Object.assign(headers, { 'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'), 'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining') });
        if (status === '429') headers['Retry-After'] = headerRef('Retry-After');
        // 5xx answers are never stored, so never replayed.
        if (replayable && /^[24]/.test(status)) headers['Idempotency-Replayed'] = headerRef('Idempotency-Replayed');
        response.headers = { ...headers, ...response.headers };
      }
    }
  }
  return paths as T;
}
