/**
 * Small builders for the OpenAPI document, so that each path file states only what differs:
 * its scopes, its bodies and the statuses it can answer.
 */
import { checkedByHandler } from './handler-checked';

export type Schema = Record<string, unknown>;
export type Operation = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** Every stored string has a ceiling, so a client knows what fits before sending it. */
export const text = (maxLength: number): Schema => ({ type: 'string', maxLength });
export const nullableText = (maxLength: number): Schema => ({ type: ['string', 'null'], maxLength });

/** At least one of several names of one value must be sent (a canonical name and its deprecated twin). */
/**
 * What `domain/timestamps.ts` accepts beyond RFC 3339 `date-time`: a UTC offset within ±15:59 (what
 * Postgres reads) and at most 9 decimals of a second. The validator's format check refuses the rest.
 */
const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?(?:[Zz]|[+-](?:0\\d|1[0-5]):[0-5]\\d)$';
export const timestampInput = <T extends Schema>(schema: T): T => checkedByHandler(schema, { pattern: TIMESTAMP_PATTERN });

/** `name` sent with a value: the handlers read `null` as not sent (domain/pricing/fee-fields.ts `given`). */
export const sent = (name: string): Schema => ({ required: [name], properties: { [name]: { not: { type: 'null' } } } });

export const oneOfNames = (...names: string[]): Schema => ({ anyOf: names.map(sent) });

/** `field` sent with a value leaves each of `others` absent or null (422 value_error at `field` otherwise). */
export const exclusiveWith = (field: string, others: string[]): Schema => ({
  if: sent(field), then: { properties: Object.fromEntries(others.map((name) => [name, { type: 'null' }])) },
});

/** A CPF or CNPJ as sent: 11 or 14 characters plus punctuation and spaces. */
export const DOCUMENT_MAX_LENGTH = 32;

/** Type F is identified by its CPF and type J by its CNPJ. */
export const documentByType: Schema = {
  allOf: [
    { if: { required: ['type'], properties: { type: { const: 'F' } } }, then: { required: ['cpf'], properties: { cpf: { type: 'string', minLength: 1, maxLength: DOCUMENT_MAX_LENGTH } } } },
    { if: { required: ['type'], properties: { type: { const: 'J' } } }, then: { required: ['cnpj'], properties: { cnpj: { type: 'string', minLength: 1, maxLength: DOCUMENT_MAX_LENGTH } } } },
  ],
};

/** Integration routes: a client token with these scopes, or the legacy client headers. */
export function clientSecurity(...scopeAlternatives: string[][]): Schema[] {
  return [
    ...scopeAlternatives.map((scopes) => ({ clientCredentials: scopes })),
    { legacyClientId: [], legacyClientSecret: [] },
  ];
}

export const clientScopes = (...scopes: string[]): Schema[] => clientSecurity(scopes);

/** Backoffice routes: a user token with these scopes. */
export const userSecurity = (...scopes: string[]): Schema[] => [{ userSession: scopes }];

/**
 * Staff work an analyst may do: `backoffice:act`, or `backoffice:decide` as these
 * routes asked before the roles (kept as an alternative so the change is additive).
 */
export const staffActSecurity = (): Schema[] => [{ userSession: ['backoffice:act'] }, { userSession: ['backoffice:decide'] }];

export const anyTokenSecurity = (): Schema[] => [{ clientCredentials: [] }, { userSession: [] }, { legacyClientId: [], legacyClientSecret: [] }];

export const jsonBody = (schema: Schema, required = true): Schema => ({
  required,
  content: { 'application/json': { schema } },
});

export const json = (description: string, schema: Schema): Schema => ({
  description,
  content: { 'application/json': { schema } },
});

const errorDescriptions: Record<number, string> = {
  401: 'Not authenticated',
  403: 'Scope insufficient (`scope_insufficient`, with the Bearer `insufficient_scope` challenge naming the scopes needed) or policy limit',
  404: 'Not found (also another originator\'s resource)',
  409: 'State or idempotency conflict',
  422: 'Schema failure or business-rule violation',
  423: 'Account locked',
  429: 'Rate limit exceeded',
  502: 'External e-signature provider failed',
  503: 'An internal dependency is unavailable (database_unavailable, workflow_unavailable), or a row the request needs stayed locked by another request '
    + 'for longer than it could wait (database_lock_timeout); retryable with backoff',
};

/** Error responses by status, all in the contract's `{detail}` envelope. */
export function errors(...statuses: number[]): Record<string, Schema> {
  return Object.fromEntries(statuses.map((status) => [String(status), {
    ...json(errorDescriptions[status] ?? 'Error', ref('ErrorEnvelope')),
    ...(status === 401 || status === 403 ? { headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } } } : {}),
  }]));
}

export const idempotencyKey = (required: boolean): Schema => ({
  $ref: required ? '#/components/parameters/IdempotencyKeyRequired' : '#/components/parameters/IdempotencyKey',
});

export const pagination: Schema[] = [
  { $ref: '#/components/parameters/Limit' },
  { $ref: '#/components/parameters/Offset' },
];

export const pathId = (name: string): Schema => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });

export const listOf = (item: Schema): Schema => ({
  type: 'object',
  required: ['items', 'total'],
  properties: { items: { type: 'array', items: item }, total: { type: 'integer', minimum: 0 }, limit: { type: 'integer' }, offset: { type: 'integer' } },
});
