import type { Knex } from 'knex';

/** Issue #31: one PIX charge with due date (API Pix `cobv`) per title, as the PSP last answered it. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('pix_charges', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('title_id').notNullable().unique().references('titles.id');
    t.text('txid').notNullable().unique();
    t.text('status').notNullable().checkIn(['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']);
    t.integer('revision').notNullable();
    t.decimal('amount_brl', 18, 2).notNullable();
    t.text('br_code').notNullable();
    t.text('location').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('pix_charges');
}
