import type { Knex } from 'knex';

/**
 * Issue #29: a staff user's TOTP secret, sealed with the payload key ring like every stored
 * secret, and the last time step accepted (a code is good once).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table users add column totp_secret_sealed text, add column totp_last_step bigint');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table users drop column totp_secret_sealed, drop column totp_last_step');
}
