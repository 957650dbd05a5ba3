import type { EventType, StoredEvent } from '../../domain/events';
import { Statement, statementRows } from '../statement';
import { TenantScopedRepository } from './tenant-scoped';
import { operationObjectIds } from './operation-objects';

export interface EventFilter {
  types: EventType[];
  createdGte: Date | null;
  createdLt: Date | null;
  objectId: string | null;
  /** Only the events of this operation and of its titles, charges and payables. */
  operationId: string | null;
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

/** A page of `GET /v1/events` as its statement listed it. */
export interface EventPageIds {
  /** The ids as listed, separated by commas (with the one beyond the page when `hasMore`), read in the direction `older` says: with the same direction and size, the same text is the same page. */
  listed: string;
  /** Newest first (no cursor, `starting_after`), else oldest first (`ending_before`). */
  older: boolean;
  hasMore: boolean;
  /** The page's ids, newest first. */
  ids(): string[];
}

/**
 * Where a page starts: the cursor's position, its instant as Postgres writes it (a `Date` would
 * drop the microseconds and move the cursor), and the direction read from it.
 */
export interface PageStart {
  older: boolean;
  occurredAt: string;
  position: number;
}

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
 * `has_more`) from `start` on, newest first, or oldest first towards newer events, as one text of
 * ids separated by commas (null for none) and `has_more`: one row to parse instead of 101, which in
 * pg's row handling cost the api more than the ids themselves. Written by hand,
 * not built: it runs on every request of the route, and knex's builder cost more api CPU than the
 * round trip. The first page unfiltered, the one integrators poll, is prepared once per connection;
 * the other shapes are planned for their values each time, as what they select varies (a cursor
 * deep in the past, a type, a day, one object).
 */
export function eventPageStatement(originatorId: string, filter: EventFilter, start: PageStart | null, limit: number): Statement {
  const values: unknown[] = [originatorId, filter.keptSince];
  const bind = (value: unknown) => `$${values.push(value)}`;
  const where = ['e.originator_id = $1', 'e.occurred_at >= $2'];
  if (filter.types.length > 0) where.push(`e.event_type = any(${bind(filter.types)}::text[])`);
  if (filter.createdGte) where.push(`e.occurred_at >= ${bind(filter.createdGte)}`);
  if (filter.createdLt) where.push(`e.occurred_at < ${bind(filter.createdLt)}`);
  if (filter.objectId) where.push(`e.object_id = ${bind(filter.objectId)}`);
  if (filter.operationId) {
    const operation = bind(filter.operationId);
    where.push(`e.object_id = any(array(${operationObjectIds(() => operation)}))`);
  }
  // Waiting events drive the query (they are few), each then read by its key.
  if (filter.deliverySuccess === false) where.push(`e.event_id = any(array(${AWAITED_BY_AN_ENDPOINT}))`);
  if (filter.deliverySuccess === true) where.push(`e.event_id not in (${AWAITED_BY_AN_ENDPOINT})`);
  if (start) where.push(`(e.occurred_at, e.position) ${start.older ? '<' : '>'} (${bind(start.occurredAt)}::timestamptz, ${bind(start.position)})`);
  const direction = !start || start.older ? 'desc' : 'asc';
  const order = (alias: string) => `${alias}.occurred_at ${direction}, ${alias}.position ${direction}`;
  const page = `select e.event_id, e.occurred_at, e.position from events as e where ${where.join(' and ')} order by ${order('e')} limit ${bind(limit + 1)}`;
  const text = `select string_agg(p.event_id::text, ',' order by ${order('p')}) as ids, count(*) > ${bind(limit)} as has_more from (${page}) as p`;
  return where.length === 2 ? { name: 'events_page', text, values } : { text, values };
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

  /** Where the page after (older than) or before (newer than) an event starts; null when the cursor names no event of this originator kept since `keptSince`. */
  async pageStart(cursor: EventCursor, keptSince: Date): Promise<PageStart | null> {
    const older = 'after' in cursor;
    const at = await this.scoped('events').where('event_id', older ? cursor.after : cursor.before).where('occurred_at', '>=', keptSince).first(this.db.raw('occurred_at::text as occurred_at'), 'position');
    return at ? { older, occurredAt: at.occurred_at, position: at.position } : null;
  }

  /**
   * The `limit` events from the cursor on, newest first, and whether more lie beyond them in that
   * direction; null when the cursor names no event of this originator. The list renders each event
   * apart (most are kept rendered: an event never changes).
   */
  async pageIds(filter: EventFilter, cursor: EventCursor | null, limit: number): Promise<EventPageIds | null> {
    const start = cursor && await this.pageStart(cursor, filter.keptSince);
    if (cursor && !start) return null;
    const [row] = await statementRows<{ ids: string | null; has_more: boolean }>(this.db, eventPageStatement(this.originatorId, filter, start, limit));
    const older = !start || start.older;
    const listed = row.ids ?? '';
    return {
      listed, older, hasMore: row.has_more,
      ids: () => {
        const ids = listed === '' ? [] : listed.split(',', limit);
        return older ? ids : ids.reverse();
      },
    };
  }

  /** The originator's events among `ids`, in no particular order. */
  async byIds(ids: readonly string[]): Promise<StoredEvent[]> {
    const rows: EventRow[] = await this.scoped('events as e').whereRaw('e.event_id = any(?::uuid[])', [[...ids]]).select(COLUMNS).options({ name: 'events_by_ids' });
    return rows.map(toEvent);
  }
}
