import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import type { Principal } from './principal';

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

/**
 * The audit row's actor: structured, not `principalLabel`'s text, because stored rows are hashed in
 * this shape (a client is `client` with its credential's id) and the trail is filtered by its fields.
 */
export function auditActorOf(principal: Principal | undefined): AuditFields['actor'] {
  if (!principal) return { type: 'system', id: 'anonymous' };
  return principal.tokenType === 'user'
    ? { type: 'user', id: principal.userId, email: principal.email }
    : { type: 'client', id: principal.credentialId, client_id: principal.clientId };
}

/** Who asked for a staff action and from where, carried to whatever writes the action's row. */
export type AuditedRequest = Pick<AuditFields, 'actor' | 'ip' | 'userAgent' | 'requestId' | 'request'> & { action: string };

/** The hash before the first row. */
export const GENESIS_HASH = '0'.repeat(64);

export function auditHash(fields: AuditFields, prevHash: string): string {
  const row = {
    id: fields.id, occurred_at: fields.occurredAt.toISOString(), actor: fields.actor, action: fields.action, target: fields.target,
    ip: fields.ip, user_agent: fields.userAgent, request_id: fields.requestId, before: fields.before ?? null, after: fields.after ?? null,
    // Absent, not null, when unset: rows from before the column hash as they always did.
    request: fields.request ?? undefined,
  };
  return createHash('sha256').update(`${prevHash}\n${canonicalJson(row)}`).digest('hex');
}
