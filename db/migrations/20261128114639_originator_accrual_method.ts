import type { Knex } from 'knex';

/**
 * How an originator's books earn each title's discount (domain/ledger/accrual.ts): by effective
 * interest unless its accountant chose straight-line, a per-originator policy like its collection key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table originators add column ledger_accrual_method text not null default 'effective_interest'
    constraint originators_ledger_accrual_method check (ledger_accrual_method in ('effective_interest', 'straight_line'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table originators drop column ledger_accrual_method');
}
