import type { Knex } from 'knex';

/**
 * Every PIX the collection PSP received for an originator, as the PSP reported it, and what it
 * went to: a title's payment, back to the payer whole, or suspense (matching no charge, or left
 * for a retry) until it is applied. The ledger's receipts and refunds post from these rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('received_pix', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('end_to_end_id').notNullable().unique();
    t.text('txid');
    t.text('pix_key');
    t.decimal('amount_brl', 15, 2).notNullable();
    // The payer's own words (API Pix `infoPagador`); a charge's payer is its title's.
    t.text('payer_info');
    t.timestamp('paid_at', { useTz: true }).notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('title_id').references('titles.id');
    t.text('applied_to');
    t.uuid('title_payment_id').references('title_payments.id');
    t.timestamp('applied_at', { useTz: true });
    t.index(['originator_id', 'applied_to']);
  });
  await knex.raw(`alter table received_pix add constraint received_pix_applied_to check (
    (applied_to is null or applied_to in ('title', 'refunded', 'suspense'))
    and ((applied_to = 'title') = (title_payment_id is not null)))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('received_pix');
}
