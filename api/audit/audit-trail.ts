import type { Request } from 'express';
import type { Knex } from 'knex';
import type { AuditedRequest, AuditFields } from '../../domain/audit-chain';
import { AuditEventsRepository } from '../../db/repositories/audit-events';
import type { Principal } from '../../domain/principal';

export interface AuditEntry {
  action: string;
  target?: AuditFields['target'];
  before?: unknown;
  after?: unknown;
  /** What the request sent (its own fields), kept apart from the outcome. */
  request?: unknown;
  /** Who, when the request's principal does not say (a sign-in names the account tried). */
  actor?: AuditFields['actor'];
}

function actorOf(principal: Principal | undefined): AuditFields['actor'] {
  if (!principal) return { type: 'system', id: 'anonymous' };
  return principal.tokenType === 'user'
    ? { type: 'user', id: principal.userId, email: principal.email }
    : { type: 'client', id: principal.credentialId, client_id: principal.clientId };
}

/**
 * The request's who, from where and request id for `action`, with what it sent: what a workflow
 * update carries so the activity that applies the action writes its row (sealed by the payload
 * codec with the rest of the update).
 */
export function auditedRequest(req: Request, action: string, request?: unknown): AuditedRequest {
  return {
    action, actor: actorOf(req.ctx.principal), ip: req.ctx.clientIp, userAgent: req.get('User-Agent') ?? null, requestId: req.ctx.requestId,
    request: request === undefined ? null : request,
  };
}

/**
 * Records staff actions in the audit trail (issue #29) with the request's who, from where and
 * request id. Written in its own transaction once the action took effect, so an action refused
 * or rolled back leaves no row claiming it happened.
 */
export class AuditTrail {
  private readonly events: AuditEventsRepository;

  constructor(db: Knex) {
    this.events = new AuditEventsRepository(db);
  }

  async record(req: Request, entry: AuditEntry): Promise<void> {
    const { action, ...who } = auditedRequest(req, entry.action, entry.request);
    await this.events.append({
      ...who, action, actor: entry.actor ?? who.actor, target: entry.target ?? null, before: entry.before ?? null, after: entry.after ?? null,
    });
  }
}
