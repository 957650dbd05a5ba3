import type { Knex } from 'knex';

/**
 * A product's `payer_confirmation` policy: `none`, or `required` (no PIX before the payer confirms
 * each NF-e, waited for up to `payer_confirmation_deadline_days` days; the 180 days within which a
 * manifestação counts bound it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => {
    t.text('payer_confirmation').notNullable().defaultTo('none');
    t.integer('payer_confirmation_deadline_days').notNullable().defaultTo(10);
  });
  await knex.raw(`alter table products add constraint products_payer_confirmation check (
    payer_confirmation in ('none', 'required') and payer_confirmation_deadline_days between 1 and 180)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table products drop constraint products_payer_confirmation');
  await knex.schema.alterTable('products', (t) => {
    t.dropColumn('payer_confirmation_deadline_days');
    t.dropColumn('payer_confirmation');
  });
}
