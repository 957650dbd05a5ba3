import type { Request } from 'express';
import type { Knex } from 'knex';
import { auditActorOf, type AuditFields } from '../../domain/audit-chain';
import { AuditEventsRepository } from '../../db/repositories/audit-events';

export interface AuditEntry {
  action: string;
  target?: AuditFields['target'];
  before?: unknown;
  after?: unknown;
  /** Who, when the request's principal does not say (a sign-in names the account tried). */
  actor?: AuditFields['actor'];
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
    await new AuditEventsRepository(within).append({
      actor: entry.actor ?? auditActorOf(req.ctx.principal), action: entry.action, target: entry.target ?? null,
      ip: req.ctx.clientIp, userAgent: req.get('User-Agent') ?? null, requestId: req.ctx.requestId,
      before: entry.before ?? null, after: entry.after ?? null,
    });
  }
}
