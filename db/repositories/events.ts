import type { Knex } from 'knex';
import { EventRecord, objectIdOf } from '../../domain/events';
import { activeTraceparent } from '../../platform/telemetry/trace-context';

/**
 * Records an event once: a retry with the same deterministic id changes nothing. Its `sequence`
 * is its object's next number, taken under that object's `event_sequences` row lock in the
 * caller's transaction (held until commit), so concurrent events of one object are numbered in
 * commit order without gaps; a retry of a recorded event takes no number. The active trace is kept
 * with it, for its deliveries to continue.
 */
export async function recordEvent(db: Knex, event: EventRecord): Promise<void> {
  await db.raw(`
    with next as (
      insert into event_sequences (object_id, last_sequence)
      select cast(:objectId as uuid), 1 where not exists (select 1 from events where event_id = cast(:eventId as uuid))
      on conflict (object_id) do update set last_sequence = event_sequences.last_sequence + 1
      returning last_sequence
    )
    insert into events (event_id, originator_id, event_type, object_id, sequence, data, occurred_at, traceparent)
    select cast(:eventId as uuid), cast(:originatorId as uuid), cast(:eventType as text), cast(:objectId as uuid), last_sequence,
      cast(:data as jsonb), cast(:occurredAt as timestamptz), cast(:traceparent as text) from next
    on conflict (event_id) do nothing`, {
    eventId: event.eventId,
    originatorId: event.originatorId,
    eventType: event.eventType,
    objectId: objectIdOf(event),
    data: JSON.stringify(event.data),
    occurredAt: event.occurredAt,
    traceparent: activeTraceparent(),
  });
}

/** Expired events go in batches, each an index range (`events_expiry`); their delivery records and pending pairs go with them. */
const PURGE_BATCH = 5_000;

export async function purgeExpiredEvents(db: Knex, before: Date): Promise<number> {
  let purged = 0;
  for (;;) {
    // `= any(array(...))`: the batch's ids are looked up one by one, never by a scan of every event.
    // Oldest first: without the order a LIMIT lets the planner bet on a sequential scan finding the
    // batch early, a bet that reads every kept event once they outnumber the expired ones.
    const { rowCount: deleted } = await db.raw(
      'delete from events where event_id = any(array(select event_id from events where occurred_at < ? order by occurred_at limit ?))', [before, PURGE_BATCH],
    );
    purged += deleted;
    if (deleted < PURGE_BATCH) return purged;
  }
}
