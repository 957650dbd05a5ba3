import type { Knex } from 'knex';

/**
 * A second lockout counter for the attempts from the addresses the account signed in from: failures
 * from elsewhere lock elsewhere (`failed_attempts`, `locked_until`), and the owner at its own
 * address is judged by its own failures.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table users add column own_failed_attempts integer not null default 0, add column own_locked_until timestamptz');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table users drop column own_failed_attempts, drop column own_locked_until');
}
