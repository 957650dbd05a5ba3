import type { Knex } from 'knex';

/**
 * Webhook subscriptions of an originator. The secret is kept readable because every delivery
 * signs with it; `previous_secret` keeps signing beside the new one for 24 h after a rotation so
 * receivers can switch without losing events. Deletion is soft: the delivery log stays for
 * support, while the subscription stops receiving anything.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('url').notNullable();
    t.specificType('event_types', 'text[]').notNullable();
    t.text('description');
    t.text('secret').notNullable();
    t.text('previous_secret');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('deleted_at', { useTz: true });
  });
  // The dispatcher's lookup: live subscriptions of one originator.
  await knex.raw('create index webhook_subscriptions_live on webhook_subscriptions (originator_id, created_at) where deleted_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_subscriptions');
}
