import type { Knex } from 'knex';

/**
 * One row per (scope, Idempotency-Key). The row is inserted in the transaction of the work it
 * protects, so an uncommitted row is the in-flight reservation (a concurrent insert of the same
 * key waits on the primary key) and a committed row always carries the stored response.
 * `scope` is the originator id (or `user:<id>` for a user without one). The body is kept as the
 * exact JSON text that was sent, so a replay is byte-identical.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_records', (t) => {
    t.text('scope').notNullable();
    t.text('key').notNullable();
    t.text('route').notNullable();
    t.text('request_hash').notNullable();
    t.integer('response_status');
    t.jsonb('response_headers');
    t.text('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['scope', 'key']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_records');
}
