import type { Knex } from 'knex';

/**
 * Issue #26: sandbox test clocks. An operation created on one keeps its id; the clock's row says
 * where its time stands (`frozen_time`) and whether an advance runs. A deleted clock keeps its row
 * (its operations still name it) with `deleted_at` set.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('test_clocks', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('name');
    t.timestamp('frozen_time', { useTz: true }).notNullable();
    t.text('status').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('deletes_after', { useTz: true }).notNullable();
    t.timestamp('deleted_at', { useTz: true });
    t.index(['originator_id', 'created_at']);
  });
  await knex.raw("alter table test_clocks add constraint test_clocks_status check (status in ('ready', 'advancing'))");
  await knex.raw('alter table operations add column test_clock_id uuid references test_clocks(id)');
  await knex.raw('create index operations_test_clock on operations (test_clock_id) where test_clock_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table operations drop column test_clock_id');
  await knex.schema.dropTable('test_clocks');
}
