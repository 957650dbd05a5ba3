import type { Request } from 'express';
import type { Knex } from 'knex';
import { auditActorOf, type AuditedRequest, type AuditFields } from '../../domain/audit-chain';
import { AuditEventsRepository } from '../../db/repositories/audit-events';

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

/**
 * The request's who, from where and request id for `action`, with what it sent: what a workflow
 * update carries so the activity that applies the action writes its row (sealed by the payload
 * codec with the rest of the update).
 */
export function auditedRequest(req: Request, action: string, request?: unknown): AuditedRequest {
  return {
    action, actor: auditActorOf(req.ctx.principal), ip: req.ctx.clientIp, userAgent: req.get('User-Agent') ?? null, requestId: req.ctx.requestId,
    request: request === undefined ? null : request,
  };
}

/**
 * Records staff actions in the audit trail with the request's who, from where and
 * request id. Given the request's transaction (`within`), the row commits with the change it
 * records or not at all; without it, in its own transaction once the action took effect, so an
 * action refused or rolled back leaves no row claiming it happened.
 */
export class AuditTrail {
  constructor(private readonly db: Knex) {}

  async record(req: Request, entry: AuditEntry, within: Knex = this.db): Promise<void> {
    const { action, ...who } = auditedRequest(req, entry.action, entry.request);
    await new AuditEventsRepository(within).append({
      ...who, action, actor: entry.actor ?? who.actor, target: entry.target ?? null, before: entry.before ?? null, after: entry.after ?? null,
    });
  }
}
