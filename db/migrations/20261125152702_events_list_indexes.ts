import type { Knex } from 'knex';

/**
 * `GET /v1/events` reads an originator's events newest first by (`occurred_at`, `position`),
 * optionally of some kinds; the 30-day expiry deletes by `occurred_at` across originators. Each
 * has its index, so both stay range scans however many events are kept. Expired events take their
 * delivery records with them (the log of a deleted event explains nothing).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index events_originator_id_occurred_at_index');
  await knex.raw('create index events_originator_recent on events (originator_id, occurred_at desc, position desc)');
  await knex.raw('create index events_originator_type_recent on events (originator_id, event_type, occurred_at desc, position desc)');
  await knex.raw('create index events_expiry on events (occurred_at)');
  await knex.raw('create index webhook_deliveries_event on webhook_deliveries (event_id)');
  await knex.raw('alter table webhook_deliveries drop constraint webhook_deliveries_event_id_foreign');
  await knex.raw('alter table webhook_deliveries add constraint webhook_deliveries_event_id_foreign foreign key (event_id) references events (event_id) on delete cascade');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table webhook_deliveries drop constraint webhook_deliveries_event_id_foreign');
  await knex.raw('alter table webhook_deliveries add constraint webhook_deliveries_event_id_foreign foreign key (event_id) references events (event_id)');
  await knex.raw('drop index webhook_deliveries_event');
  await knex.raw('drop index events_expiry');
  await knex.raw('drop index events_originator_type_recent');
  await knex.raw('drop index events_originator_recent');
  await knex.raw('create index events_originator_id_occurred_at_index on events (originator_id, occurred_at)');
}
