import type { Knex } from 'knex';

/**
 * Each escriturador webhook event handled, by the escriturador's event id: a repeat of the same
 * event finds its row and does nothing. `outcome` says what it did to our title, for support.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('registrar_events', (t) => {
    t.text('event_id').primary();
    t.text('type').notNullable();
    t.text('duplicata_id').notNullable();
    t.uuid('title_id').references('titles.id');
    t.text('outcome').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.index(['title_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('registrar_events');
}
