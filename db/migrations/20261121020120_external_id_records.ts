import type { Knex } from 'knex';

/**
 * `external_id` deduplication of the money routes, one generic table for every grain:
 * `grain` names the route's rule (`assignor_payable_payment`, `discount_credit`), `scope` the
 * entity that bounds it (the payable, the originator). Kept for good: a second debit or credit
 * must never happen, however late the retry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('external_id_records', (t) => {
    t.text('grain').notNullable();
    t.text('scope').notNullable();
    t.text('external_id').notNullable();
    t.text('request').notNullable();
    t.text('result');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['grain', 'scope', 'external_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('external_id_records');
}
