import type { Knex } from 'knex';

/**
 * What an assignor owes the originator (DESIGN.md §5): opened by an overdue title (repurchase of
 * its outstanding balance) or by hand. `remaining` is kept current by every debit, so open debt is
 * one sum; `written_off_amount` keeps what was forgiven.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assignor_payables', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('assignor_id').notNullable().references('assignors.id');
    t.text('origin').notNullable().checkIn(['TITLE_OVERDUE', 'MANUAL']);
    t.uuid('origin_title_id').references('titles.id');
    t.text('reason');
    for (const name of ['amount', 'paid_amount', 'remaining', 'written_off_amount']) t.decimal(name, 18, 2).notNullable();
    t.text('status').notNullable().checkIn(['OPEN', 'PARTIALLY_PAID', 'PAID', 'WRITTEN_OFF']);
    t.date('due_date').notNullable();
    t.text('write_off_reason');
    t.timestamp('settled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['originator_id', 'assignor_id', 'status', 'created_at']);
  });
  // One repurchase per overdue title, however often the overdue move is retried.
  await knex.raw("create unique index assignor_payables_overdue_title on assignor_payables (origin_title_id) where origin = 'TITLE_OVERDUE'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('assignor_payables');
}
