import type { Knex } from 'knex';

/**
 * Credit and pricing policy of an originator (DESIGN.md §7). Null limits mean "not configured",
 * which the credit limit engine distinguishes from a deliberate 0. One active policy per
 * originator; an operation may name another of the originator's policies by `policy_id`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policies', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('name').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.decimal('min_operation_value_brl', 18, 2);
    t.decimal('max_operation_value_brl', 18, 2);
    t.decimal('auto_approve_limit_brl', 18, 2);
    t.decimal('aggregate_limit_brl', 18, 2);
    t.decimal('assignor_default_limit_brl', 18, 2);
    t.decimal('payer_default_limit_brl', 18, 2);
    t.text('risk_anchoring').notNullable().defaultTo('both').checkIn(['assignor', 'payer', 'both']);
    t.decimal('min_cet_monthly_pct', 9, 4);
    t.decimal('max_cet_monthly_pct', 9, 4);
    t.decimal('default_monthly_rate_pct', 9, 4).notNullable().defaultTo(0);
    t.decimal('default_discount_pct', 9, 4).notNullable().defaultTo(0);
    t.decimal('default_fixed_discount_brl', 18, 2).notNullable().defaultTo(0);
    t.integer('default_floating_days').notNullable().defaultTo(0);
    t.integer('max_receivables_per_operation').notNullable().defaultTo(500);
    t.integer('grace_days').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['originator_id']);
  });
  await knex.raw('create unique index policies_one_active on policies (originator_id) where active');
  await knex.raw(`alter table policies add constraint policies_operation_range check (
    min_operation_value_brl is null or max_operation_value_brl is null or min_operation_value_brl <= max_operation_value_brl)`);
  await knex.raw(`alter table policies add constraint policies_cet_range check (
    min_cet_monthly_pct is null or max_cet_monthly_pct is null or min_cet_monthly_pct <= max_cet_monthly_pct)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policies');
}
