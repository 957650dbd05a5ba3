import type { Knex } from 'knex';

/**
 * Sliding one-minute windows, one row per bucket (`ip:<class>:<address>`, `token:<credential>`,
 * `user:<id>`): the requests admitted in each second of the last minute, as parallel arrays
 * (`seconds` ascending, `counts`). At most 60 pairs, whatever the limit, so the cost of a check
 * does not grow with the budget. Unlogged: written on every request and worthless after a crash
 * (losing it only resets budgets), so it skips the WAL.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create unlogged table rate_limit_windows (bucket text primary key, seconds bigint[] not null, counts integer[] not null)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_windows');
}
