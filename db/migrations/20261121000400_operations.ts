import type { Knex } from 'knex';

function money(t: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return t.decimal(name, 18, 2);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('operations', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('display_number').notNullable().unique();
    t.uuid('assignor_id').notNullable().references('assignors.id');
    t.uuid('policy_id');
    t.text('product_id');
    t.text('channel').notNullable().checkIn(['direct', 'stock']);
    t.text('lifecycle_status').notNullable();
    t.boolean('needs_backoffice_approval').notNullable();
    t.boolean('embedded_signature').notNullable().defaultTo(false);
    t.boolean('has_partial_anticipations').notNullable().defaultTo(false);
    t.text('fee_hierarchy').notNullable();
    t.text('disbursement_method');
    t.jsonb('disbursement_target');
    for (const name of ['opr_gross_future_value', 'opr_net_future_value', 'opr_requested_net_future_value', 'opr_present_value_discount',
      'opr_net_liquid_value', 'other_debt_discounts', 'opr_net_present_liquid_value']) money(t, name).notNullable();
    t.integer('average_days_in_advance').notNullable();
    t.decimal('weighted_avg_days', 12, 4).notNullable();
    t.integer('floating_days').notNullable();
    t.decimal('cet_monthly_pct', 12, 6);
    t.decimal('cet_annual_pct', 12, 6);
    t.text('contract_type').notNullable();
    t.integer('signers_count').notNullable();
    t.text('deny_reason');
    t.text('cancel_reason');
    t.timestamp('approved_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['originator_id', 'created_at']);
    t.index(['originator_id', 'lifecycle_status']);
  });

  await knex.schema.createTable('titles', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('operation_id').notNullable().references('operations.id');
    t.uuid('assignor_id').notNullable().references('assignors.id');
    t.uuid('payer_id').notNullable().references('payers.id');
    t.uuid('stock_item_id');
    t.text('external_id').notNullable();
    t.text('identifier');
    t.text('backing_type').notNullable();
    t.text('status').notNullable();
    for (const name of ['gross_future_value', 'net_future_value', 'requested_net_future_value', 'present_value_discount',
      'net_present_liquid_value', 'outstanding_balance', 'paid_amount']) money(t, name).notNullable();
    money(t, 'fixed_discount_brl');
    t.date('due_date').notNullable();
    t.integer('qty_days_advanced').notNullable();
    t.text('fee_source').notNullable();
    t.decimal('monthly_rate_pct', 9, 4);
    t.decimal('discount_pct', 9, 4);
    t.boolean('is_partial').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['operation_id', 'external_id']);
    t.index(['originator_id', 'payer_id', 'status']);
    t.index(['originator_id', 'assignor_id', 'status']);
  });

  await knex.schema.createTable('stock_items', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.uuid('assignor_id').notNullable().references('assignors.id');
    t.uuid('payer_id').notNullable().references('payers.id');
    t.text('status').notNullable();
    t.uuid('operation_id');
    t.uuid('source_operation_id');
    t.text('external_id').notNullable();
    t.text('identifier');
    t.text('backing_type').notNullable();
    t.text('nfe_number');
    t.text('nfe_serie');
    t.text('nfe_key');
    t.date('nfe_issue_date');
    money(t, 'nfe_total_value');
    money(t, 'gross_future_value');
    money(t, 'gross_future_value_deductions');
    money(t, 'net_future_value').notNullable();
    t.date('due_date').notNullable();
    t.boolean('pre_authorized').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['originator_id', 'status']);
  });

  // DESIGN.md §4: written in the creation transaction; the api or the relay starts the workflow.
  await knex.schema.createTable('workflow_outbox', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable();
    t.text('workflow_type').notNullable();
    t.text('workflow_id').notNullable().unique();
    t.jsonb('args').notNullable();
    t.jsonb('search_attributes').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
  });
  await knex.raw('create index workflow_outbox_pending on workflow_outbox (created_at) where started_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workflow_outbox');
  await knex.schema.dropTable('stock_items');
  await knex.schema.dropTable('titles');
  await knex.schema.dropTable('operations');
}
