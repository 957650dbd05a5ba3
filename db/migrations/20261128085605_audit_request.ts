import type { Knex } from 'knex';

/**
 * What a staff request sent, kept apart from `before`/`after`, which only the system writes: a
 * body can then never pose as the outcome. Null on rows written before it and on rows whose
 * request sent nothing; the chain's hash covers it only when set, so older rows verify unchanged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table audit_events add column request jsonb');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table audit_events drop column request');
}
