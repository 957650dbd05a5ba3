import type { Knex } from 'knex';

/**
 * The NF-e XML (procNFe) that proved a title's receivable at creation, sealed with the key ring
 * (`enc:v1:...`): it names the payer and every item sold, personal and commercial data at rest.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('title_nfe_xml', (t) => {
    t.uuid('title_id').primary().references('titles.id');
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('sealed_xml').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('title_nfe_xml');
}
