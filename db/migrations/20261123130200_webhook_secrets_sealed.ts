import type { Knex } from 'knex';
import { loadConfig } from '../../platform/config/config';
import { CipherRing, isSealedText } from '../../platform/crypto/cipher-ring';

/**
 * Webhook secrets at rest are sealed with the payload key ring: the rows written
 * before this migration are sealed here, with the newest key of the configuration the migrating
 * process was started with (a migration runs at start-up, like the entry points that read it).
 */
async function rewrite(knex: Knex, change: (ring: CipherRing, value: string) => string | null): Promise<void> {
  const rows: { id: string; secret: string; previous_secret: string | null }[] = await knex('webhook_subscriptions').select('id', 'secret', 'previous_secret');
  // Only rows need the key ring: a database without subscriptions migrates without the service's configuration.
  if (rows.length === 0) return;
  const ring = new CipherRing(loadConfig().payloadKeys);
  for (const row of rows) {
    const secret = change(ring, row.secret);
    const previous = row.previous_secret === null ? null : change(ring, row.previous_secret);
    if (secret === null && previous === null) continue;
    await knex('webhook_subscriptions').where({ id: row.id }).update({ secret: secret ?? row.secret, previous_secret: previous ?? row.previous_secret });
  }
}

export async function up(knex: Knex): Promise<void> {
  await rewrite(knex, (ring, value) => (isSealedText(value) ? null : ring.sealText(value)));
}

export async function down(knex: Knex): Promise<void> {
  await rewrite(knex, (ring, value) => (isSealedText(value) ? ring.openText(value) : null));
}
