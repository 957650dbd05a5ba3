import type { Knex } from 'knex';

/**
 * Issue #27: the page of `GET /v1/events` selects only `event_id` (each envelope is kept rendered
 * per process), in the order of `events_originator_recent`. With `event_id` carried in that index
 * the page is read from the index alone wherever the visibility map allows (an index-only scan),
 * instead of one heap fetch per listed event. Every recording writes this index anyway; the entry
 * grows by the 16 bytes of a uuid (bench/README.md: what recording an event adds).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index events_originator_recent');
  await knex.raw('create index events_originator_recent on events (originator_id, occurred_at desc, position desc) include (event_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index events_originator_recent');
  await knex.raw('create index events_originator_recent on events (originator_id, occurred_at desc, position desc)');
}
