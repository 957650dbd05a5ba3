import type { Knex } from 'knex';

/** A product's policy on the NF-e's XML: `optional` (default), or `required` for every receivable with an NF-e key. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => t.text('nfe_xml').notNullable().defaultTo('optional').checkIn(['optional', 'required']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => t.dropColumn('nfe_xml'));
}
