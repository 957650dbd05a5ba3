import type { Knex } from 'knex';

/**
 * What each subscription has not received yet: one row per (subscription, event) from the
 * dispatch that pairs them until a delivery of that event to that subscription succeeds (or the
 * subscription is deleted, or the event expires). `GET /v1/events?delivery_success=false` reads
 * it, so the filter costs what is pending, not what is kept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_pending_events', (t) => {
    t.uuid('subscription_id').notNullable().references('webhook_subscriptions.id');
    t.uuid('event_id').notNullable().references('events.event_id').onDelete('CASCADE');
    t.uuid('originator_id').notNullable();
    t.primary(['subscription_id', 'event_id']);
    t.index(['originator_id', 'event_id']);
    t.index(['event_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_pending_events');
}
