import type { Knex } from 'knex';

/**
 * `POST /v1/webhooks/{id}/recover`: one row per recovery, its window and its progress, written by
 * the recovery workflow's activity as it re-delivers the window's events in `position` order.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_recoveries', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('subscription_id').notNullable().references('webhook_subscriptions.id');
    t.timestamp('since', { useTz: true }).notNullable();
    t.timestamp('until', { useTz: true }).notNullable();
    t.text('status').notNullable();
    t.integer('delivered').notNullable().defaultTo(0);
    t.bigInteger('last_position').notNullable().defaultTo(0);
    t.uuid('failed_event_id');
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.index(['subscription_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_recoveries');
}
