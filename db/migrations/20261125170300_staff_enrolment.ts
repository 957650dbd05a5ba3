import type { Knex } from 'knex';

/** Issue #29: staff accounts invited by an admin, enrolled with a one-time token (only its SHA-256 is kept). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table users
    add column enrolment_token_hash text unique,
    add column enrolment_expires_at timestamptz,
    add column enrolled_at timestamptz`);
  // Users that exist already signed in with their password: they are enrolled.
  await knex.raw('update users set enrolled_at = created_at');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table users drop column enrolment_token_hash, drop column enrolment_expires_at, drop column enrolled_at');
}
