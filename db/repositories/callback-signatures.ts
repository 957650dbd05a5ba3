import type { Knex } from 'knex';

/**
 * Records an accepted provider callback signature; false when it was already recorded (a replay).
 * Run inside the callback's transaction: if its work fails the record rolls back with it, so the
 * provider's retry is not mistaken for a replay, and a concurrent replay waits on the key, then
 * finds it.
 */
export async function recordCallbackSignature(db: Knex, provider: string, signature: string, now: Date): Promise<boolean> {
  const inserted = await db('provider_callback_signatures').insert({ provider, signature, received_at: now }).onConflict(['provider', 'signature']).ignore().returning('signature');
  return inserted.length === 1;
}

/**
 * For a callback whose work holds no transaction (it waits on workflow updates): its signature is
 * recorded first, and forgotten when the work fails, so the provider's retry is not taken for a replay.
 */
export async function forgetCallbackSignature(db: Knex, provider: string, signature: string): Promise<void> {
  await db('provider_callback_signatures').where({ provider, signature }).delete();
}

export async function purgeCallbackSignatures(db: Knex, olderThan: Date): Promise<number> {
  return db('provider_callback_signatures').where('received_at', '<', olderThan).delete();
}
