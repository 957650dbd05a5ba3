import type { Knex } from 'knex';

/**
 * Why an operation was cancelled, as a code: `requested` (the integrator or support asked), or the
 * check before the PIX that refused it (`nfe_cancelled`, `nfe_disowned_by_payer`, ...). Null on
 * operations cancelled before it was recorded.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('operations', (t) => t.text('cancellation_reason'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('operations', (t) => t.dropColumn('cancellation_reason'));
}
