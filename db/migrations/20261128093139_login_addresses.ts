import type { Knex } from 'knex';

/**
 * The addresses each account signed in from: the per-account login ceiling does not apply to them,
 * so failures from elsewhere cannot keep the owner out (stored as the rate limiter counts an
 * address: IPv4 whole, IPv6 by its /64).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_addresses', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('address').notNullable();
    t.timestamp('last_success_at', { useTz: true }).notNullable();
    t.primary(['user_id', 'address']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('login_addresses');
}
