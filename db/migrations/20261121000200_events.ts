import type { Knex } from 'knex';

/**
 * Events for webhooks: one row per business event, written in the same transaction (or the same
 * idempotent activity) as the state change it reports. `event_id` is deterministic so a retry
 * cannot record an event twice. `dispatched_at` marks the fan-out to webhook deliveries.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events', (t) => {
    t.uuid('event_id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('event_type').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('dispatched_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['originator_id', 'occurred_at']);
  });
  await knex.raw('create index events_undispatched on events (created_at) where dispatched_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('events');
}
