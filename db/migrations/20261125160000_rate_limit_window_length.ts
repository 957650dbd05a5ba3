import type { Knex } from 'knex';

/**
 * Issue #30: a bucket may count over a window longer than a minute (a login account's attempts
 * per hour). The purge needs each bucket's own length to know when it is idle.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table rate_limit_windows add column window_seconds integer not null default 60');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table rate_limit_windows drop column window_seconds');
}
