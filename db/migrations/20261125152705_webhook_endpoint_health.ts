import type { Knex } from 'knex';

/**
 * Endpoint health: an endpoint whose every delivery failed for the configured span
 * (5 days) is disabled with a reason until its owner enables it. `failing_since` is the first
 * failure after the last success; `max_per_second` throttles every POST to it, recoveries included.
 * The throttle's counters are one row per endpoint and second, unlogged: a crash only resets them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.text('status').notNullable().defaultTo('enabled');
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    t.timestamp('last_failure_at', { useTz: true });
    t.timestamp('failing_since', { useTz: true });
    t.integer('failure_streak').notNullable().defaultTo(0);
    t.integer('max_per_second').notNullable().defaultTo(20);
  });
  await knex.raw(`
    create unlogged table webhook_throttle (
      subscription_id uuid not null,
      second bigint not null,
      sent integer not null,
      primary key (subscription_id, second)
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_throttle');
  await knex.schema.alterTable('webhook_subscriptions', (t) => {
    t.dropColumns('status', 'disabled_reason', 'disabled_at', 'last_success_at', 'last_failure_at', 'failing_since', 'failure_streak', 'max_per_second');
  });
}
