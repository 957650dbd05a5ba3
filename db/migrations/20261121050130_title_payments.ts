import type { Knex } from 'knex';

/**
 * Payer payments applied to a title by its workflow. Unique per (title, external_id): the
 * activity that applies one can be retried without a second credit.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('title_payments', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('title_id').notNullable().references('titles.id');
    t.text('external_id').notNullable();
    t.decimal('amount', 18, 2).notNullable();
    t.decimal('remaining_after', 18, 2).notNullable();
    t.timestamp('paid_at', { useTz: true }).notNullable();
    t.text('channel').notNullable().checkIn(['BACKOFFICE', 'SANDBOX']);
    t.text('recorded_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['title_id', 'external_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('title_payments');
}
