import type { Knex } from 'knex';

/**
 * Provider callback signatures already accepted: a replay inside the timestamp's
 * tolerance window finds its signature here and does nothing. Rows older than the window are
 * useless (such a callback is refused as stale) and are purged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('provider_callback_signatures', (t) => {
    t.text('provider').notNullable();
    t.text('signature').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.primary(['provider', 'signature']);
    t.index(['received_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('provider_callback_signatures');
}
