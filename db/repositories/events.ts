import type { Knex } from 'knex';
import type { EventRecord } from '../../domain/events';

/** Records an event once: a retry with the same deterministic id changes nothing. */
export async function recordEvent(db: Knex, event: EventRecord): Promise<void> {
  await db('events')
    .insert({
      event_id: event.eventId,
      originator_id: event.originatorId,
      event_type: event.eventType,
      data: JSON.stringify(event.data),
      occurred_at: event.occurredAt,
    })
    .onConflict('event_id')
    .ignore();
}
