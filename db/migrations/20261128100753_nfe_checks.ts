import type { Knex } from 'knex';

/**
 * Each check of an operation's NF-e at SEFAZ before its PIX, as it happened (one row per key per
 * check; the latest per title is the one that counts): what SEFAZ answered and which adapter answered.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('nfe_checks', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('operation_id').notNullable().references('operations.id');
    t.uuid('title_id').notNullable().references('titles.id');
    t.text('nfe_key').notNullable();
    t.text('status').notNullable().checkIn(['passed', 'refused', 'pending']);
    t.text('reason');
    t.text('cstat').notNullable();
    t.text('xmotivo').notNullable();
    t.text('payer_event');
    t.timestamp('payer_event_at', { useTz: true });
    t.text('adapter').notNullable().checkIn(['sefaz', 'sandbox']);
    t.timestamp('checked_at', { useTz: true }).notNullable();
    t.index(['operation_id', 'title_id', 'checked_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('nfe_checks');
}
