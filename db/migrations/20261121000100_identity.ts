import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('originators', (t) => {
    t.uuid('id').primary();
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_credentials', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('client_id').notNullable().unique();
    t.text('secret_hash').notNullable();
    t.text('env').notNullable().checkIn(['prod', 'sandbox']);
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary();
    t.text('email').notNullable().unique();
    t.text('name').notNullable();
    t.text('password_hash').notNullable();
    t.text('kind').notNullable().checkIn(['backoffice', 'originator']);
    t.uuid('originator_id').references('originators.id');
    t.specificType('scopes', 'text[]').notNullable();
    t.integer('failed_attempts').notNullable().defaultTo(0);
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('signing_keys', (t) => {
    t.text('kid').primary();
    t.text('private_pem').notNullable();
    t.text('public_pem').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('retired_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('signing_keys');
  await knex.schema.dropTable('users');
  await knex.schema.dropTable('api_credentials');
  await knex.schema.dropTable('originators');
}
