import type { Knex } from 'knex';

/**
 * Per-endpoint `max_per_second`, shared by every worker: one counter per endpoint and second.
 * Taking a slot is one upsert that locks the counter, so concurrent senders are counted exactly;
 * a full second answers false and the sender waits for the next one.
 */
export async function takeSendSlot(db: Knex, subscriptionId: string, maxPerSecond: number, second: number): Promise<boolean> {
  const { rows } = await db.raw(`
    insert into webhook_throttle (subscription_id, second, sent) values (?, ?, 1)
    on conflict (subscription_id, second) do update set sent = webhook_throttle.sent + 1 where webhook_throttle.sent < ?
    returning sent`, [subscriptionId, second, maxPerSecond]);
  return rows.length > 0;
}

/** Seconds long gone count for nothing. */
export async function purgeSendSlots(db: Knex, beforeSecond: number): Promise<number> {
  return db('webhook_throttle').where('second', '<', beforeSecond).delete();
}
