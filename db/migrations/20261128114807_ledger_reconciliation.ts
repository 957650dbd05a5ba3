import type { Knex } from 'knex';

/**
 * Reconciliation of the PSP accounts and the daily close (docs/ledger.md): each run of a business
 * date against one PSP's statement, the mismatches it found, and the dates closed. A transaction
 * whose effective time falls in a closed date is booked at the start of the first open date, by
 * the database, whatever code writes it: a closed day's books never change.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ledger_reconciliations', (t) => {
    t.uuid('id').primary();
    t.date('business_date').notNullable();
    t.text('psp').notNullable().checkIn(['payout', 'collection']);
    t.text('status').notNullable().checkIn(['clean', 'mismatched', 'accepted']);
    t.text('requested_by').notNullable();
    t.bigint('ledger_balance_cents').notNullable();
    t.bigint('psp_balance_cents').notNullable();
    t.integer('psp_lines').notNullable();
    t.integer('ledger_lines').notNullable();
    t.integer('mismatch_count').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('accepted_by');
    t.text('accepted_reason');
    t.timestamp('accepted_at', { useTz: true });
    t.index(['business_date', 'psp']);
    t.index(['created_at']);
  });

  await knex.schema.createTable('ledger_reconciliation_mismatches', (t) => {
    t.uuid('id').primary();
    t.uuid('reconciliation_id').notNullable().references('ledger_reconciliations.id');
    // Null when nothing names the originator (a PSP line neither our books nor our rows know).
    t.uuid('originator_id').references('originators.id');
    t.text('kind').notNullable().checkIn(['missing_in_ledger', 'missing_at_psp', 'amount_differs', 'closing_balance_differs']);
    t.text('reference');
    t.text('end_to_end_id');
    t.text('direction').checkIn(['in', 'out']);
    t.bigint('ledger_amount_cents');
    t.bigint('psp_amount_cents');
    t.timestamp('occurred_at', { useTz: true });
    t.index(['reconciliation_id']);
  });

  await knex.schema.createTable('ledger_closed_dates', (t) => {
    t.date('business_date').primary();
    t.timestamp('closed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('closed_by').notNullable();
  });

  await knex.raw(`create function ledger_open_from() returns timestamptz language sql stable as $$
    select ((max(business_date) + 1)::timestamp at time zone 'America/Sao_Paulo') from ledger_closed_dates $$`);
  await knex.raw(`create function ledger_book_in_open_date() returns trigger language plpgsql as $$
    declare
      open_from timestamptz := ledger_open_from();
    begin
      if open_from is null then return new; end if;
      if tg_op = 'INSERT' then
        new.effective_at := greatest(new.effective_at, open_from);
      elsif new.resolved_effective_at is not null then
        new.resolved_effective_at := greatest(new.resolved_effective_at, open_from);
      end if;
      return new;
    end $$`);
  // Named to fire before ledger_transactions_resolve_once, which compares effective_at, not resolved_effective_at.
  await knex.raw(`create trigger ledger_transactions_book_in_open_date before insert or update on ledger_transactions
    for each row execute function ledger_book_in_open_date()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger ledger_transactions_book_in_open_date on ledger_transactions');
  await knex.raw('drop function ledger_book_in_open_date()');
  await knex.raw('drop function ledger_open_from()');
  await knex.schema.dropTable('ledger_closed_dates');
  await knex.schema.dropTable('ledger_reconciliation_mismatches');
  await knex.schema.dropTable('ledger_reconciliations');
}
