import type { Knex } from 'knex';

/**
 * The operation read integrators poll (`GET /v1/operations/{id}`) is cached by each api process
 * too (docs/decisions.md "Caches"): a change of the operation or of one of its titles notifies
 * `reference_changed` with `operations:<id>` or `titles:<operation id>`, with the function of
 * migration 20261123200000. The titles' payers are never updated (created once per document), so
 * they need no trigger.
 */
const SOURCES = [
  { table: 'operations', scope: 'id' },
  { table: 'titles', scope: 'operation_id' },
];

export async function up(knex: Knex): Promise<void> {
  for (const { table, scope } of SOURCES) {
    await knex.raw(`create trigger ${table}_read_changed after insert or update or delete on ${table}
      for each row execute function notify_reference_changed('${scope}')`);
    await knex.raw(`create trigger ${table}_read_truncated after truncate on ${table}
      for each statement execute function notify_reference_changed('${scope}')`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table } of SOURCES) {
    await knex.raw(`drop trigger ${table}_read_truncated on ${table}`);
    await knex.raw(`drop trigger ${table}_read_changed on ${table}`);
  }
}
