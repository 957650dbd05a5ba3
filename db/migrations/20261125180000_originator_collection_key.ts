import type { Knex } from 'knex';

/** Issue #31: the PIX key the originator collects its titles on (a null key issues no charges). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table originators add column collection_pix_key text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table originators drop column collection_pix_key');
}
