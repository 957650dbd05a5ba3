import type { Knex } from 'knex';

/**
 * One row per delivery attempt (the contract's delivery record). `attempt_number` counts the
 * POSTs of one (event, subscription) pair, so the unique key makes a replayed record a no-op.
 * `error` says why an attempt had no HTTP status (timeout, refused address, TLS...).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('subscription_id').notNullable().references('webhook_subscriptions.id');
    t.uuid('event_id').notNullable().references('events.event_id');
    t.text('event_type').notNullable();
    t.text('url').notNullable();
    t.integer('attempt_number').notNullable();
    t.integer('response_status_code');
    t.integer('duration_ms').notNullable();
    t.boolean('delivered_successfully').notNullable();
    t.timestamp('next_retry_at', { useTz: true });
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['subscription_id', 'event_id', 'attempt_number']);
    t.index(['subscription_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
}
