import type { Knex } from 'knex';

/**
 * Issue #29: staff roles on users (the token's scopes follow from them), the policy's four-eyes
 * threshold, and each operation's approvals as the workflow records them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table users add column roles text[] not null default '{}'`);
  await knex.raw('alter table policies add column dual_approval_above_brl numeric(18, 2) check (dual_approval_above_brl >= 0)');
  await knex.raw('alter table operations add column approvals_required smallint not null default 1 check (approvals_required in (1, 2))');
  await knex.schema.createTable('operation_approvals', (t) => {
    t.uuid('operation_id').notNullable().references('operations.id');
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('user_id').notNullable();
    t.text('email').notNullable();
    t.timestamp('approved_at', { useTz: true }).notNullable();
    t.primary(['operation_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('operation_approvals');
  await knex.raw('alter table operations drop column approvals_required');
  await knex.raw('alter table policies drop column dual_approval_above_brl');
  await knex.raw('alter table users drop column roles');
}
