import type { Knex } from 'knex';

/**
 * Where an originator's duplicatas are registered (domain/escriturador/negotiation.ts): which
 * escriturador, the holder its acquisitions make (its CNPJ or its fund's), and the negotiation
 * type. One row per originator; an originator without one registers nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('originator_registration_settings', (t) => {
    t.uuid('originator_id').primary().references('originators.id');
    t.text('registrar').notNullable();
    t.text('holder_document').notNullable();
    t.text('negotiation_type').notNullable().defaultTo('aquisicao_com_regresso');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table originator_registration_settings add constraint originator_registration_settings_negotiation_type
    check (negotiation_type in ('aquisicao', 'aquisicao_com_regresso', 'desconto', 'credito_garantido'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('originator_registration_settings');
}
