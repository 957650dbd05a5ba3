import type { Knex } from 'knex';

/** A product's policy for an NF-e beyond SEFAZ's consult age (cStat 526): `refuse` (default) or `accept_with_xml`. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => t.text('nfe_beyond_consult_age').notNullable().defaultTo('refuse').checkIn(['refuse', 'accept_with_xml']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => t.dropColumn('nfe_beyond_consult_age'));
}
