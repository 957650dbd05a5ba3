import type { Knex } from 'knex';

/**
 * The operation read shows each receivable's latest NF-e check, and each api process caches that
 * read: a new check notifies `nfe_checks:<operation id>` (the function of migration
 * 20261123200000), which drops the operation's cached read as a title's change does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create trigger nfe_checks_read_changed after insert or update or delete on nfe_checks
    for each row execute function notify_reference_changed('operation_id')`);
  await knex.raw(`create trigger nfe_checks_read_truncated after truncate on nfe_checks
    for each statement execute function notify_reference_changed('operation_id')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger nfe_checks_read_truncated on nfe_checks');
  await knex.raw('drop trigger nfe_checks_read_changed on nfe_checks');
}
