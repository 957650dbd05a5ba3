import type { Knex } from 'knex';

/** Issue #31: the fine and monthly interest a payer owes after a title's due date (Brazilian practice: 2 %, 1 % a month). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table policies
    add column late_fee_pct numeric(9, 4) not null default 2,
    add column late_interest_monthly_pct numeric(9, 4) not null default 1`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table policies drop column late_fee_pct, drop column late_interest_monthly_pct');
}
