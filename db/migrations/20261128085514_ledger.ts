import type { Knex } from 'knex';

/**
 * The double-entry ledger (docs/ledger.md): accounts per originator, transactions and their
 * entries in exact cents. The database itself keeps the books honest, whatever code writes them:
 * - a transaction's entries balance (debits = credits, at least two), checked at COMMIT by a
 *   deferred constraint trigger, so a transaction is written entry by entry and judged whole;
 * - entries are append-only (no UPDATE, DELETE or TRUNCATE) and join only a transaction recorded
 *   in the same database transaction, so a committed transaction never gains an entry;
 * - a transaction changes only once, pending to posted or voided (two phases); a correction is
 *   a new transaction that reverses it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ledger_accounts', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('kind').notNullable();
    t.text('normal_balance').notNullable().checkIn(['debit', 'credit']);
    // What makes the account one of its kind: its PSP, title, operation or payable (docs/ledger.md).
    t.text('account_key').notNullable();
    t.text('psp');
    t.uuid('operation_id').references('operations.id');
    t.uuid('title_id').references('titles.id');
    t.uuid('payable_id').references('assignor_payables.id');
    t.uuid('assignor_id').references('assignors.id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['originator_id', 'account_key']);
    t.unique(['id', 'originator_id']);
    t.index(['originator_id', 'kind']);
  });

  await knex.schema.createTable('ledger_transactions', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('kind').notNullable();
    t.text('status').notNullable().checkIn(['pending', 'posted', 'voided']);
    t.text('idempotency_key').notNullable();
    t.timestamp('effective_at', { useTz: true }).notNullable();
    t.timestamp('recorded_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // When a pending transaction was posted or voided: the business time (a PSP's settlement) and the clock's.
    t.timestamp('resolved_effective_at', { useTz: true });
    t.timestamp('resolved_at', { useTz: true });
    t.uuid('operation_id').references('operations.id');
    t.uuid('title_id').references('titles.id');
    t.uuid('payable_id').references('assignor_payables.id');
    t.uuid('assignor_id').references('assignors.id');
    t.text('pix_end_to_end_id');
    t.text('external_id');
    t.uuid('reverses_id').references('ledger_transactions.id');
    t.unique(['originator_id', 'idempotency_key']);
    t.unique(['id', 'originator_id']);
    t.index(['originator_id', 'effective_at']);
    t.index(['originator_id', 'operation_id']);
    t.index(['originator_id', 'title_id']);
  });
  await knex.raw(`alter table ledger_transactions add constraint ledger_transactions_resolution check (
    (status <> 'pending' or resolved_at is null) and (resolved_at is null) = (resolved_effective_at is null))`);

  await knex.schema.createTable('ledger_entries', (t) => {
    t.uuid('id').primary();
    t.uuid('originator_id').notNullable();
    t.uuid('transaction_id').notNullable();
    t.smallint('position').notNullable();
    t.uuid('account_id').notNullable();
    t.text('direction').notNullable().checkIn(['debit', 'credit']);
    t.bigint('amount_cents').notNullable();
    t.uuid('operation_id').references('operations.id');
    t.uuid('title_id').references('titles.id');
    // The composite keys keep every entry of a transaction, and every account it moves, in one originator's books.
    t.foreign(['transaction_id', 'originator_id']).references(['id', 'originator_id']).inTable('ledger_transactions');
    t.foreign(['account_id', 'originator_id']).references(['id', 'originator_id']).inTable('ledger_accounts');
    t.unique(['transaction_id', 'position']);
    t.index(['account_id']);
  });
  await knex.raw('alter table ledger_entries add constraint ledger_entries_amount_positive check (amount_cents > 0)');

  await knex.raw(`create function ledger_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'ledger % are append-only: % refused (post a reversal instead)', tg_table_name, tg_op using errcode = 'integrity_constraint_violation';
    end $$`);
  await knex.raw(`create trigger ledger_entries_append_only before update or delete on ledger_entries
    for each row execute function ledger_refuse_change()`);
  await knex.raw(`create trigger ledger_entries_no_truncate before truncate on ledger_entries
    for each statement execute function ledger_refuse_change()`);
  await knex.raw(`create trigger ledger_transactions_no_delete before delete on ledger_transactions
    for each row execute function ledger_refuse_change()`);
  await knex.raw(`create trigger ledger_transactions_no_truncate before truncate on ledger_transactions
    for each statement execute function ledger_refuse_change()`);

  // recorded_at defaults to now(), the database transaction's start: an entry joins only a transaction recorded by its own.
  await knex.raw(`create function ledger_entry_joins_new_transaction() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from ledger_transactions where id = new.transaction_id and recorded_at = now() and status <> 'voided') then
        raise exception 'ledger transaction % is already recorded: its entries cannot change', new.transaction_id using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$`);
  await knex.raw(`create trigger ledger_entries_join_new before insert on ledger_entries
    for each row execute function ledger_entry_joins_new_transaction()`);

  await knex.raw(`create function ledger_transaction_resolves_once() returns trigger language plpgsql as $$
    begin
      if old.status <> 'pending' or new.status not in ('posted', 'voided') then
        raise exception 'ledger transaction % is %: only a pending transaction is posted or voided', old.id, old.status using errcode = 'integrity_constraint_violation';
      end if;
      if (new.id, new.originator_id, new.kind, new.idempotency_key, new.effective_at, new.recorded_at, new.operation_id, new.title_id,
          new.payable_id, new.assignor_id, new.pix_end_to_end_id, new.external_id, new.reverses_id)
         is distinct from (old.id, old.originator_id, old.kind, old.idempotency_key, old.effective_at, old.recorded_at, old.operation_id, old.title_id,
          old.payable_id, old.assignor_id, old.pix_end_to_end_id, old.external_id, old.reverses_id) then
        raise exception 'ledger transaction %: posting or voiding changes nothing but its status', old.id using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$`);
  await knex.raw(`create trigger ledger_transactions_resolve_once before update on ledger_transactions
    for each row execute function ledger_transaction_resolves_once()`);

  // tg_argv[0] names the column holding the transaction's id: the entry's transaction_id, or the transaction's own id.
  await knex.raw(`create function ledger_transaction_balances() returns trigger language plpgsql as $$
    declare
      tx uuid := (to_jsonb(new) ->> tg_argv[0])::uuid;
      net bigint;
      lines integer;
    begin
      select coalesce(sum(case direction when 'debit' then amount_cents else -amount_cents end), 0), count(*)
        into net, lines from ledger_entries where transaction_id = tx;
      if lines < 2 or net <> 0 then
        raise exception 'ledger transaction % does not balance: % entries, debits minus credits % cents', tx, lines, net
          using errcode = 'check_violation';
      end if;
      return null;
    end $$`);
  await knex.raw(`create constraint trigger ledger_entries_balanced after insert on ledger_entries
    deferrable initially deferred for each row execute function ledger_transaction_balances('transaction_id')`);
  await knex.raw(`create constraint trigger ledger_transactions_balanced after insert on ledger_transactions
    deferrable initially deferred for each row execute function ledger_transaction_balances('id')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ledger_entries');
  await knex.schema.dropTable('ledger_transactions');
  await knex.schema.dropTable('ledger_accounts');
  for (const fn of ['ledger_refuse_change', 'ledger_entry_joins_new_transaction', 'ledger_transaction_resolves_once', 'ledger_transaction_balances']) {
    await knex.raw(`drop function ${fn}()`);
  }
}
