import { createHash } from 'node:crypto';

/** What an audit row says; the hash covers all of it and the previous row's hash. */
export interface AuditFields {
  id: string;
  occurredAt: Date;
  actor: { type: 'user' | 'client' | 'system'; id: string; email?: string; client_id?: string };
  action: string;
  target: { type: string; id: string } | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  before: unknown;
  after: unknown;
  /** What the request sent, apart from the outcome the system recorded in `before`/`after`. */
  request?: unknown;
}

/** Who asked for a staff action and from where, carried to whatever writes the action's row. */
export type AuditedRequest = Pick<AuditFields, 'actor' | 'ip' | 'userAgent' | 'requestId' | 'request'> & { action: string };

/** The hash before the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every level: jsonb gives keys back in its own order, so the hash must not depend on it. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value).filter(([, inner]) => inner !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function auditHash(fields: AuditFields, prevHash: string): string {
  const row = {
    id: fields.id, occurred_at: fields.occurredAt.toISOString(), actor: fields.actor, action: fields.action, target: fields.target,
    ip: fields.ip, user_agent: fields.userAgent, request_id: fields.requestId, before: fields.before ?? null, after: fields.after ?? null,
    // Absent, not null, when unset: rows from before the column hash as they always did.
    request: fields.request ?? undefined,
  };
  return createHash('sha256').update(`${prevHash}\n${canonicalJson(row)}`).digest('hex');
}
