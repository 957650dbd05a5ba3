import type { Knex } from 'knex';

/**
 * Issue #28: the W3C `traceparent` of the work that wrote an outbox entry or an event (null with
 * tracing off), so the relay's workflow start and each webhook delivery continue that trace
 * instead of starting their own.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table workflow_outbox add column traceparent text');
  await knex.raw('alter table events add column traceparent text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table workflow_outbox drop column traceparent');
  await knex.raw('alter table events drop column traceparent');
}
