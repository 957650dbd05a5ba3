import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { AuditedRequest, AuditFields, auditHash, GENESIS_HASH } from '../../domain/audit-chain';
import type { CoveredRow } from '../../domain/audit-merkle';

export interface AuditEventRow extends AuditFields {
  seq: number;
  prevHash: string;
  hash: string;
}

export interface AuditFilters {
  targetId?: string;
  actorId?: string;
  action?: string;
  createdGte?: string;
  createdLt?: string;
}

/** One key for the whole chain: appends take turns, so each row links to the one before it. */
const CHAIN_LOCK = 29_0001;

const COLUMNS = ['seq', 'id', 'occurred_at', 'actor', 'action', 'target_type', 'target_id', 'ip', 'user_agent', 'request_id', 'before', 'after', 'request', 'prev_hash', 'hash'];

function toRow(row: Record<string, unknown>): AuditEventRow {
  return {
    seq: Number(row.seq), id: String(row.id), occurredAt: row.occurred_at as Date, actor: row.actor as AuditFields['actor'], action: String(row.action),
    target: row.target_type === null ? null : { type: String(row.target_type), id: String(row.target_id) },
    ip: row.ip as string | null, userAgent: row.user_agent as string | null, requestId: row.request_id as string | null,
    before: row.before, after: row.after, request: row.request ?? null, prevHash: String(row.prev_hash), hash: String(row.hash),
  };
}

/** The audit trail: cross-tenant like the staff it records; rows are only ever added. */
export class AuditEventsRepository {
  constructor(private readonly db: Knex) {}

  /**
   * Appends one row, chained to the last; the lock is held until the caller's transaction ends. Given
   * a transaction, the row commits with the change it records, or neither does.
   */
  async append(fields: Omit<AuditFields, 'id' | 'occurredAt'>): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?)', [CHAIN_LOCK]);
      const last = await trx('audit_events').select('hash').orderBy('seq', 'desc').first();
      const row = { ...fields, id: uuidv7(), occurredAt: new Date() };
      const prevHash = last?.hash ?? GENESIS_HASH;
      await trx('audit_events').insert({
        id: row.id, occurred_at: row.occurredAt, actor: row.actor, action: row.action, target_type: row.target?.type ?? null, target_id: row.target?.id ?? null,
        ip: row.ip, user_agent: row.userAgent, request_id: row.requestId,
        before: row.before === undefined ? null : JSON.stringify(row.before), after: row.after === undefined ? null : JSON.stringify(row.after),
        request: row.request === undefined || row.request === null ? null : JSON.stringify(row.request),
        prev_hash: prevHash, hash: auditHash(row, prevHash),
      });
    });
  }

  /**
   * The row of a staff action applied away from its request (by a workflow's activity), from the
   * request's who, from where and what it sent, which travelled with the update.
   */
  async appendFor(audit: AuditedRequest, change: { target: AuditFields['target']; before?: unknown; after?: unknown }): Promise<void> {
    const { action, ...who } = audit;
    await this.append({ ...who, action, target: change.target, before: change.before ?? null, after: change.after ?? null });
  }

  /** Newest first; `before` is the cursor (the last seq of the previous page). */
  async list(filters: AuditFilters, limit: number, before?: number): Promise<AuditEventRow[]> {
    const query = this.db('audit_events').select(COLUMNS).orderBy('seq', 'desc').limit(limit);
    if (filters.targetId) query.where('target_id', filters.targetId);
    if (filters.actorId) query.whereRaw(`actor->>'id' = ?`, [filters.actorId]);
    if (filters.action) query.where('action', filters.action);
    if (filters.createdGte) query.where('occurred_at', '>=', filters.createdGte);
    if (filters.createdLt) query.where('occurred_at', '<', filters.createdLt);
    if (before !== undefined) query.where('seq', '<', before);
    return (await query).map(toRow);
  }

  /** The hash of the row at `seq`, or null when the trail has no such row. */
  async hashAt(seq: number): Promise<string | null> {
    const row = await this.db('audit_events').select('hash').where({ seq }).first();
    return row ? String(row.hash) : null;
  }

  /** The rows in (afterSeq, uptoSeq] as a checkpoint's Merkle tree holds them, in order. */
  async coveredRows(afterSeq: number, uptoSeq: number): Promise<CoveredRow[]> {
    const rows = await this.db('audit_events').select('seq', 'hash').where('seq', '>', afterSeq).andWhere('seq', '<=', uptoSeq).orderBy('seq');
    return rows.map((row) => [Number(row.seq), String(row.hash)] as const);
  }

  /** The chain in order, a page at a time, from after `afterSeq`. */
  async chainPage(afterSeq: number, size: number): Promise<AuditEventRow[]> {
    return (await this.db('audit_events').select(COLUMNS).where('seq', '>', afterSeq).orderBy('seq').limit(size)).map(toRow);
  }
}
