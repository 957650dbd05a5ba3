import type { Knex } from 'knex';

/**
 * Segregation of duties for staff accounts: who made and who last changed each account (the
 * approvers' independence is judged from them), and the role grants a second admin confirms.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table users
    add column created_by uuid,
    add column changed_by uuid,
    add column changed_at timestamptz`);
  await knex.schema.createTable('staff_role_grants', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('users.id');
    t.specificType('roles', 'text[]').notNullable();
    t.uuid('requested_by').notNullable();
    t.timestamp('requested_at', { useTz: true }).notNullable();
    t.text('status').notNullable().checkIn(['pending', 'confirmed', 'superseded']);
    t.uuid('confirmed_by');
    t.timestamp('confirmed_at', { useTz: true });
  });
  // At most one pending grant per account: a newer request supersedes the older.
  await knex.raw(`create unique index staff_role_grants_one_pending on staff_role_grants (user_id) where status = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('staff_role_grants');
  await knex.raw('alter table users drop column created_by, drop column changed_by, drop column changed_at');
}
