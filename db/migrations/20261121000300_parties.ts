import type { Knex } from 'knex';

/**
 * Assignors (cedentes) and payers (sacados) of an originator. Both carry optional fee defaults
 * (the `assignor` and `payer` levels of the fee hierarchy) and an optional own credit limit
 * (the entity link of the credit limit engine: null inherits the policy default, 0 blocks).
 */
function feeDefaults(t: Knex.CreateTableBuilder): void {
  t.decimal('monthly_rate_pct', 9, 4);
  t.decimal('discount_pct', 9, 4);
  t.decimal('fixed_discount_brl', 18, 2);
  t.integer('floating_days');
  t.decimal('limit_brl', 18, 2);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assignors', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('type').notNullable().checkIn(['F', 'J']);
    t.text('document').notNullable();
    t.text('cpf');
    t.text('cnpj');
    t.text('name').notNullable();
    t.text('trade_name');
    t.text('email').notNullable();
    t.text('phone');
    t.jsonb('address');
    t.text('disbursement_method').checkIn(['pix_document', 'bank_account']);
    t.text('pix_key_document');
    t.text('bank_code');
    t.text('bank_agency');
    t.text('bank_account');
    t.text('bank_account_type');
    feeDefaults(t);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['originator_id', 'document']);
  });

  await knex.schema.createTable('payers', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('document').notNullable();
    t.text('name').notNullable();
    feeDefaults(t);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['originator_id', 'document']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payers');
  await knex.schema.dropTable('assignors');
}
