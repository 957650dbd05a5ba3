import type { Knex } from 'knex';

/**
 * The webhook dispatcher's queries. Deliberately not tenant-scoped: the dispatcher serves every
 * originator. Isolation is the join itself: an event meets only subscriptions of its own
 * originator, and only those that existed when it was recorded.
 */
export interface DeliveryPair {
  eventId: string;
  originatorId: string;
  subscriptionId: string;
  /** The trace that recorded the event, which its delivery continues (null with tracing off). */
  traceparent: string | null;
}

/**
 * Locks up to `limit` undispatched events (skipping those another dispatcher holds) and pairs
 * each with its subscribers. Runs inside the caller's transaction, which marks them afterwards.
 * Pairs of a disabled endpoint are `held`: nothing is sent, but the event waits for it (a
 * recovery after enabling sends it).
 */
export async function claimUndispatched(trx: Knex.Transaction, limit: number): Promise<{ eventIds: string[]; pairs: DeliveryPair[]; held: DeliveryPair[] }> {
  const events = await trx('events').whereNull('dispatched_at').orderBy('created_at').limit(limit)
    .forUpdate().skipLocked().select('event_id');
  const eventIds = events.map((e: { event_id: string }) => e.event_id);
  if (eventIds.length === 0) return { eventIds, pairs: [], held: [] };
  const rows = await trx('events as e')
    .join('webhook_subscriptions as s', function joinSubscribers() {
      this.on('s.originator_id', 'e.originator_id')
        .andOn(trx.raw('e.event_type = any(s.event_types)'))
        .andOn('s.created_at', '<=', 'e.created_at');
    })
    .whereIn('e.event_id', eventIds)
    .whereNull('s.deleted_at')
    .select('e.event_id', 'e.originator_id', 's.id as subscription_id', 's.status', 'e.traceparent');
  const pairOf = (r: Record<string, string>): DeliveryPair => ({
    eventId: r.event_id, originatorId: r.originator_id, subscriptionId: r.subscription_id, traceparent: r.traceparent,
  });
  return {
    eventIds,
    pairs: rows.filter((r: Record<string, string>) => r.status === 'enabled').map(pairOf),
    held: rows.filter((r: Record<string, string>) => r.status !== 'enabled').map(pairOf),
  };
}

/** Marks the events dispatched, each pair waiting until its delivery succeeds. */
export async function markDispatched(trx: Knex.Transaction, eventIds: string[], pairs: DeliveryPair[]): Promise<void> {
  await trx('events').whereIn('event_id', eventIds).update({ dispatched_at: trx.fn.now() });
  if (pairs.length === 0) return;
  await trx('webhook_pending_events')
    .insert(pairs.map((pair) => ({ subscription_id: pair.subscriptionId, event_id: pair.eventId, originator_id: pair.originatorId })))
    .onConflict(['subscription_id', 'event_id']).ignore();
}
