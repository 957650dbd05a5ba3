import { Request, Router } from 'express';
import type { Knex } from 'knex';
import { AuditEventRow, AuditEventsRepository } from '../../db/repositories/audit-events';
import { handle, ok } from '../http/handle';
import { csvLine, type CsvStyle } from '../http/csv';

function present(row: AuditEventRow) {
  return {
    id: row.id, occurred_at: row.occurredAt.toISOString(), actor: row.actor, action: row.action, target: row.target,
    ip: row.ip, user_agent: row.userAgent, request_id: row.requestId, before: row.before, after: row.after, request: row.request ?? null, prev_hash: row.prevHash, hash: row.hash,
  };
}

const CSV_COLUMNS = ['occurred_at', 'actor_type', 'actor_id', 'actor_email', 'action', 'target_type', 'target_id', 'ip', 'user_agent', 'request_id', 'before', 'after', 'request', 'prev_hash', 'hash'];

/** Every field quoted, so no field's content decides how a spreadsheet splits the row. */
const AUDIT_CSV: CsvStyle = { delimiter: ',', quoteAll: true };

/** The request's filters as a query string again: an object filter (`created`) as its `created[gte]` form. */
function searchOf(query: Record<string, unknown>, cursor: string): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && typeof value === 'object') for (const [part, inner] of Object.entries(value)) search.append(`${key}[${part}]`, String(inner));
    else if (key !== 'cursor' && value !== undefined) search.append(key, String(value));
  }
  search.set('cursor', cursor);
  return search;
}

function csvRow(row: AuditEventRow): string {
  return csvLine([
    row.occurredAt.toISOString(), row.actor.type, row.actor.id, row.actor.email ?? null, row.action, row.target?.type ?? null, row.target?.id ?? null,
    row.ip, row.userAgent, row.requestId, row.before, row.after, row.request ?? null, row.prevHash, row.hash,
  ], AUDIT_CSV);
}

/** The audit trail for admins and approvers: JSON or CSV, the same filters and cursor. */
export function auditRoutes(db: Knex): Router {
  const router = Router();
  const repository = new AuditEventsRepository(db);

  async function pageOf(req: Request) {
    const q = req.query as Record<string, string | undefined> & { created?: { gte?: string; lt?: string } };
    const limit = Number(q.limit ?? 100);
    const rows = await repository.list({
      targetId: q.target_id, actorId: q.actor_id, action: q.action, createdGte: q.created?.gte, createdLt: q.created?.lt,
    }, limit + 1, q.cursor === undefined ? undefined : Number(q.cursor));
    const items = rows.slice(0, limit);
    return { items, nextCursor: rows.length > limit ? String(items[items.length - 1].seq) : null };
  }

  router.get('/v1/backoffice/audit-events', handle(async (req) => {
    const { items, nextCursor } = await pageOf(req);
    return ok({ items: items.map(present), next_cursor: nextCursor });
  }));

  router.get('/v1/backoffice/audit-events.csv', handle(async (req) => {
    const { items, nextCursor } = await pageOf(req);
    const text = [CSV_COLUMNS.join(','), ...items.map(csvRow)].join('\r\n');
    const next: Record<string, string> = nextCursor === null ? {} : { Link: `<${req.path}?${searchOf(req.query, nextCursor)}>; rel="next"` };
    return { status: 200, body: `${text}\r\n`, headers: { 'Content-Type': 'text/csv; charset=utf-8', ...next } };
  }));
  return router;
}
