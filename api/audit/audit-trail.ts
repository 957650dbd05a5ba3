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
 * request id. Written in its own transaction once the action took effect, so an action refused
 * or rolled back leaves no row claiming it happened.
 */
export class AuditTrail {
  private readonly events: AuditEventsRepository;

  constructor(db: Knex) {
    this.events = new AuditEventsRepository(db);
  }

  async record(req: Request, entry: AuditEntry): Promise<void> {
    await this.events.append({
      actor: entry.actor ?? auditActorOf(req.ctx.principal), action: entry.action, target: entry.target ?? null,
      ip: req.ctx.clientIp, userAgent: req.get('User-Agent') ?? null, requestId: req.ctx.requestId,
      before: entry.before ?? null, after: entry.after ?? null,
    });
  }
}
