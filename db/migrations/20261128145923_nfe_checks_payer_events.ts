import type { Knex } from 'knex';

/** Whether a check could read the payer's events (`read`), or SEFAZ would not show them to the certificate we hold (`not_available`). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('nfe_checks', (t) => t.text('payer_events').notNullable().defaultTo('read').checkIn(['read', 'not_available']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('nfe_checks', (t) => t.dropColumn('payer_events'));
}
