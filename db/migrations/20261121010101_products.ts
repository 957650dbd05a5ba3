import type { Knex } from 'knex';

/** The product catalogue of an originator (`GET /v1/products`): rate, term and value ranges. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('products', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('name').notNullable();
    t.text('description');
    t.decimal('min_monthly_rate_pct', 9, 4).notNullable();
    t.decimal('max_monthly_rate_pct', 9, 4).notNullable();
    t.integer('min_term_days').notNullable();
    t.integer('max_term_days').notNullable();
    t.decimal('min_value_brl', 18, 2).notNullable();
    t.decimal('max_value_brl', 18, 2).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['originator_id', 'name']);
  });
  await knex.raw(`alter table products add constraint products_ranges check (
    min_monthly_rate_pct <= max_monthly_rate_pct and min_term_days <= max_term_days and min_value_brl <= max_value_brl)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('products');
}
