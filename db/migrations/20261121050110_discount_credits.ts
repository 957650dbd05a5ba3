import type { Knex } from 'knex';

/** Credits granted to an assignor; each is applied at once to its open payables (payable_payments). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('discount_credits', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('assignor_id').notNullable().references('assignors.id');
    t.decimal('amount', 18, 2).notNullable();
    t.text('reason').notNullable();
    t.text('external_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['originator_id', 'assignor_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('discount_credits');
}
