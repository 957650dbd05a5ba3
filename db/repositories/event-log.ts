import type { EventType, StoredEvent } from '../../domain/events';
import { Statement, statementRows } from '../statement';
import { TenantScopedRepository } from './tenant-scoped';

export interface EventFilter {
  types: EventType[];
  createdGte: Date | null;
  createdLt: Date | null;
  objectId: string | null;
  /** false: some subscribed endpoint has not received it yet; true: none is waiting for it. */
  deliverySuccess: boolean | null;
  /** Nothing older is listed, whether or not the expiry has deleted it yet. */
  keptSince: Date;
}

/** Where a page starts: after (older than) or before (newer than) a listed event. */
export type EventCursor = { after: string } | { before: string };

interface EventRow {
  event_id: string;
  originator_id: string;
  event_type: EventType;
  object_id: string;
  sequence: number;
  data: Record<string, unknown>;
  occurred_at: Date;
  position: string;
}

const toEvent = (row: EventRow): StoredEvent => ({
  eventId: row.event_id, originatorId: row.originator_id, eventType: row.event_type, objectId: row.object_id,
  sequence: row.sequence, data: row.data, occurredAt: row.occurred_at,
});

const COLUMNS = ['e.event_id', 'e.originator_id', 'e.event_type', 'e.object_id', 'e.sequence', 'e.data', 'e.occurred_at', 'e.position'];

const cursorId = (cursor: EventCursor): string => ('after' in cursor ? cursor.after : cursor.before);

/**
 * Events a subscription is still to receive: paired and not delivered yet, or not even paired
 * (the dispatcher runs after commit) while a live subscription would take them. A first attempt
 * can succeed before the dispatch that paired it commits, so a pair is also checked against the
 * delivery log. `$1` is the originator.
 */
const AWAITED_BY_AN_ENDPOINT = 'select p.event_id from webhook_pending_events as p where p.originator_id = $1'
  + ' and not exists (select 1 from webhook_deliveries as d where d.subscription_id = p.subscription_id and d.event_id = p.event_id and d.delivered_successfully)'
  + ' union select u.event_id from events as u where u.originator_id = $1 and u.dispatched_at is null'
  + ' and exists (select 1 from webhook_subscriptions as s where s.originator_id = u.originator_id and s.deleted_at is null'
  + ' and u.event_type = any(s.event_types) and s.created_at <= u.created_at)';

/**
 * The statement of a page of `GET /v1/events`: `limit` + 1 event ids (the one beyond says
 * `has_more`) from the cursor on, newest first, or oldest first before an `ending_before`. The
 * cursor's position is read inside it; a cursor that names no event of the originator gives no
 * rows. Written by hand, not built, because it runs on every request of the route (knex's builder
 * cost more api CPU than the round trip). The unfiltered shapes, the ones polled, are prepared
 * once per connection; a filtered one is planned for its values each time, as its selectivity
 * varies (a type, a day, one object).
 */
export function eventPageStatement(originatorId: string, filter: EventFilter, cursor: EventCursor | null, limit: number): Statement {
  const values: unknown[] = [originatorId, filter.keptSince];
  const bind = (value: unknown) => `$${values.push(value)}`;
  const where = ['e.originator_id = $1', 'e.occurred_at >= $2'];
  if (filter.types.length > 0) where.push(`e.event_type = any(${bind(filter.types)}::text[])`);
  if (filter.createdGte) where.push(`e.occurred_at >= ${bind(filter.createdGte)}`);
  if (filter.createdLt) where.push(`e.occurred_at < ${bind(filter.createdLt)}`);
  if (filter.objectId) where.push(`e.object_id = ${bind(filter.objectId)}`);
  // Waiting events drive the query (they are few), each then read by its key.
  if (filter.deliverySuccess === false) where.push(`e.event_id = any(array(${AWAITED_BY_AN_ENDPOINT}))`);
  if (filter.deliverySuccess === true) where.push(`e.event_id not in (${AWAITED_BY_AN_ENDPOINT})`);
  const filtered = where.length > 2;
  const older = !cursor || 'after' in cursor;
  if (cursor) {
    where.push(`(e.occurred_at, e.position) ${older ? '<' : '>'} (select c.occurred_at, c.position from events as c where c.originator_id = $1 and c.event_id = ${bind(cursorId(cursor))})`);
  }
  const direction = older ? 'desc' : 'asc';
  const text = `select e.event_id from events as e where ${where.join(' and ')} order by e.occurred_at ${direction}, e.position ${direction} limit ${bind(limit + 1)}`;
  if (filtered) return { text, values };
  return { name: cursor ? `events_page_${older ? 'after' : 'before'}` : 'events_page', text, values };
}

/**
 * One originator's events, newest first by (`occurred_at`, `position`): a keyset, so a page stays
 * the same while new events arrive, and every filter is a range of an index (migration
 * 20261125152702) or a lookup of what is pending.
 */
export class EventLogRepository extends TenantScopedRepository {
  async find(eventId: string, keptSince: Date): Promise<StoredEvent | null> {
    const row = await this.scoped('events as e').where('e.event_id', eventId).where('e.occurred_at', '>=', keptSince).first(COLUMNS);
    return row ? toEvent(row) : null;
  }

  /**
   * The ids of `limit` events from the cursor on, newest first, and whether more lie beyond them in
   * that direction; null when the cursor names no event of this originator. The list renders each
   * event apart (most are kept rendered: an event never changes). One round trip: the cursor is
   * looked up inside the page's statement, and only an empty page asks again whether it exists.
   */
  async pageIds(filter: EventFilter, cursor: EventCursor | null, limit: number): Promise<{ ids: string[]; hasMore: boolean } | null> {
    const rows = await statementRows<{ event_id: string }>(this.db, eventPageStatement(this.originatorId, filter, cursor, limit));
    if (cursor && rows.length === 0 && !(await this.scoped('events').where('event_id', cursorId(cursor)).first('event_id'))) return null;
    const ids = rows.slice(0, limit).map((row) => row.event_id);
    return { ids: !cursor || 'after' in cursor ? ids : ids.reverse(), hasMore: rows.length > limit };
  }

  /** The originator's events among `ids`, in no particular order. */
  async byIds(ids: readonly string[]): Promise<StoredEvent[]> {
    const rows: EventRow[] = await this.scoped('events as e').whereRaw('e.event_id = any(?::uuid[])', [[...ids]]).select(COLUMNS).options({ name: 'events_by_ids' });
    return rows.map(toEvent);
  }
}
