import type { Knex } from 'knex';
import type { EventType, StoredEvent } from '../../domain/events';
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
   * event apart (most are kept rendered: an event never changes).
   */
  async pageIds(filter: EventFilter, cursor: EventCursor | null, limit: number): Promise<{ ids: string[]; hasMore: boolean } | null> {
    const query = this.filtered(filter);
    const older = !cursor || 'after' in cursor;
    if (cursor) {
      const at = await this.scoped('events').where('event_id', 'after' in cursor ? cursor.after : cursor.before).first('occurred_at', 'position');
      if (!at) return null;
      query.whereRaw(`(e.occurred_at, e.position) ${older ? '<' : '>'} (?, ?)`, [at.occurred_at, at.position]);
    }
    const direction = older ? 'desc' : 'asc';
    const rows: { event_id: string }[] = await query.orderBy([{ column: 'e.occurred_at', order: direction }, { column: 'e.position', order: direction }])
      .limit(limit + 1).select('e.event_id');
    const ids = rows.slice(0, limit).map((row) => row.event_id);
    return { ids: older ? ids : ids.reverse(), hasMore: rows.length > limit };
  }

  /** The originator's events among `ids`, in no particular order. */
  async byIds(ids: readonly string[]): Promise<StoredEvent[]> {
    const rows: EventRow[] = await this.scoped('events as e').whereRaw('e.event_id = any(?::uuid[])', [[...ids]]).select(COLUMNS).options({ name: 'events_by_ids' });
    return rows.map(toEvent);
  }

  private filtered(filter: EventFilter): Knex.QueryBuilder {
    const query = this.scoped('events as e').where('e.occurred_at', '>=', filter.keptSince);
    if (filter.types.length > 0) query.whereIn('e.event_type', filter.types);
    if (filter.createdGte) query.where('e.occurred_at', '>=', filter.createdGte);
    if (filter.createdLt) query.where('e.occurred_at', '<', filter.createdLt);
    if (filter.objectId) query.where('e.object_id', filter.objectId);
    // Waiting events drive the query (they are few), each then read by its key.
    if (filter.deliverySuccess === false) query.whereRaw('e.event_id = any(array(?))', [this.awaitedByAnEndpoint()]);
    if (filter.deliverySuccess === true) query.whereNotIn('e.event_id', this.awaitedByAnEndpoint());
    return query;
  }

  /**
   * Events a subscription is still to receive: paired and not delivered yet, or not even paired
   * (the dispatcher runs after commit) while a live subscription would take them. A first attempt
   * can succeed before the dispatch that paired it commits, so a pair is also checked against the
   * delivery log.
   */
  private awaitedByAnEndpoint(): Knex.QueryBuilder {
    const pending = this.scoped('webhook_pending_events as p').whereNotExists((q) => q.from('webhook_deliveries as d')
      .whereRaw('d.subscription_id = p.subscription_id and d.event_id = p.event_id and d.delivered_successfully'))
      .select('p.event_id');
    const undispatched = this.scoped('events as u').whereNull('u.dispatched_at').whereExists((q) => q.from('webhook_subscriptions as s')
      .whereRaw('s.originator_id = u.originator_id and s.deleted_at is null and u.event_type = any(s.event_types) and s.created_at <= u.created_at'))
      .select('u.event_id');
    return pending.union(undispatched);
  }
}
