import type { Knex } from 'knex';

/**
 * Wakes the webhook dispatcher as soon as an event row commits (NOTIFY is delivered at commit,
 * and identical notifications of one transaction collapse into one), so fan-out does not wait
 * for a polling interval. Statement level: one wake-up per insert, however many rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function notify_events_recorded() returns trigger language plpgsql as $$
    begin
      perform pg_notify('events_recorded', '');
      return null;
    end $$`);
  await knex.raw(`
    create trigger events_recorded after insert on events
    for each statement execute function notify_events_recorded()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger events_recorded on events');
  await knex.raw('drop function notify_events_recorded()');
}
