import type { Knex } from 'knex';

/**
 * One row per dispatch attempt of an operation's contract, and per PIX attempt. Neither stores a
 * `sign_url` or signer token: the provider re-issues them when the signers are read.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contracts', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('operation_id').notNullable().references('operations.id');
    t.uuid('assignor_id').notNullable().references('assignors.id');
    t.integer('attempt').notNullable();
    t.text('status').notNullable().checkIn(['PENDING', 'SENT', 'SIGNED', 'ERROR', 'VOIDED']);
    t.text('type').notNullable().checkIn(['FULL_CONTRACT', 'ADDENDUM']);
    t.boolean('is_first_contract').notNullable();
    t.boolean('embedded').notNullable();
    t.text('provider_document_id');
    t.text('doc_token');
    t.integer('signers_count').notNullable().defaultTo(0);
    t.text('error_code');
    t.timestamp('signed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['operation_id', 'attempt']);
    t.index(['provider_document_id']);
  });

  await knex.schema.createTable('disbursements', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('operation_id').notNullable().references('operations.id');
    t.integer('attempt').notNullable();
    t.text('idempotency_key').notNullable().unique();
    t.text('provider_payment_id');
    t.decimal('amount', 18, 2).notNullable();
    t.text('status').notNullable().checkIn(['PENDING', 'SETTLED', 'REJECTED']);
    t.decimal('settled_amount', 18, 2);
    t.text('rejection_reason');
    t.timestamp('settled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['operation_id', 'attempt']);
    t.index(['provider_payment_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('disbursements');
  await knex.schema.dropTable('contracts');
}
