import type { Knex } from 'knex';

/**
 * Our act at the escriturador per title (domain/escriturador/registration.ts): the duplicata it
 * acquires, the act once registered, and where it stands. One row per title, written `requested`
 * before the escriturador is asked, so a worker lost mid-call leaves a trace the retry completes.
 * A change drops the api's cached operation read, as a title's change does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('title_registrations', (t) => {
    t.uuid('title_id').primary().references('titles.id');
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('operation_id').notNullable().references('operations.id');
    t.text('registrar').notNullable();
    t.text('duplicata_id').notNullable();
    t.text('act_id');
    t.text('negotiation_type').notNullable();
    t.text('status').notNullable().checkIn(['requested', 'registered', 'refused', 'cancelled', 'settled']);
    t.timestamp('registered_at', { useTz: true });
    t.text('refusal_reason').checkIn(['not_holder', 'already_transferred']);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['operation_id']);
    t.index(['duplicata_id']);
  });
  await knex.raw(`create trigger title_registrations_read_changed after insert or update or delete on title_registrations
    for each row execute function notify_reference_changed('operation_id')`);
  await knex.raw(`create trigger title_registrations_read_truncated after truncate on title_registrations
    for each statement execute function notify_reference_changed('operation_id')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('title_registrations');
}
