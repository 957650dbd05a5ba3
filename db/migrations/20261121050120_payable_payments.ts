import type { Knex } from 'knex';

/**
 * Every debit of a payable: a payment by the assignor, the netting of an operation (its source
 * operation) or a discount credit. A netting undone by its operation's cancellation is kept, with
 * `reversed_at`, so the ledger never loses a line.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payable_payments', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('payable_id').notNullable().references('assignor_payables.id');
    t.text('source').notNullable();
    t.decimal('amount', 18, 2).notNullable();
    t.decimal('remaining_after', 18, 2).notNullable();
    t.text('external_id');
    t.uuid('operation_id').references('operations.id');
    t.uuid('discount_credit_id').references('discount_credits.id');
    t.timestamp('reversed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['payable_id', 'created_at']);
    t.index(['operation_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payable_payments');
}
