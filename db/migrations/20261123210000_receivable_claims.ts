import type { Knex } from 'knex';

/**
 * Double assignment (docs/decisions.md, "Double assignment"). `receivable_claims` holds one row
 * per (originator, receivable fingerprint) while anything of that originator holds the
 * receivable: a stock item `IN_STOCK` or a title still open (`title_counts_as_exposure`). The
 * primary key is the guard: creation inserts the claims of new receivables and a second one
 * conflicts, whoever commits first, so no read-then-write is involved.
 *
 * Statement-level triggers on `stock_items` and `titles` keep the set exact whatever path writes
 * them (creation, stock cancel and patch, a denial or cancellation in the worker, a payment that
 * closes a title): a row that starts holding ensures its claim (a continuation of the same
 * receivable, such as a partial-anticipation remainder or the title of an anticipated stock item,
 * adds no claim of its own), and a row that stops holding drops the claim once nothing holds it.
 * They run after the exposure triggers (names sort after them), so a release locks the exposure
 * counters before any claim, as creation does.
 *
 * `operations.review_reason` records why an operation was sent to human approval regardless of
 * its amount (a receivable held by another originator); `policies.double_assignment` decides
 * between refusing that and reviewing it.
 */
const HOLDING_STOCK = "status = 'IN_STOCK' and receivable_fingerprint is not null";
const HOLDING_TITLE = 'title_counts_as_exposure(status) and receivable_fingerprint is not null';

function claimsApply(holding: string): string {
  const ensure = `insert into receivable_claims (originator_id, fingerprint)
    select distinct originator_id, receivable_fingerprint from new_rows where ${holding}
    order by 1, 2 on conflict do nothing`;
  const release = `delete from receivable_claims c
    using (select distinct originator_id, receivable_fingerprint from old_rows where ${holding}) o
    where c.originator_id = o.originator_id and c.fingerprint = o.receivable_fingerprint
      and not exists (select 1 from stock_items s where s.originator_id = c.originator_id and s.receivable_fingerprint = c.fingerprint and s.status = 'IN_STOCK')
      and not exists (select 1 from titles t where t.originator_id = c.originator_id and t.receivable_fingerprint = c.fingerprint and title_counts_as_exposure(t.status))`;
  return `
    begin
      if TG_OP in ('UPDATE', 'DELETE') then ${release}; end if;
      if TG_OP in ('INSERT', 'UPDATE') then ${ensure}; end if;
      return null;
    end`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('receivable_claims', (t) => {
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('fingerprint').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['originator_id', 'fingerprint']);
    // The signal across originators looks a key up whoever holds it.
    t.index(['fingerprint']);
  });
  await knex.schema.alterTable('stock_items', (t) => t.text('receivable_fingerprint'));
  await knex.schema.alterTable('titles', (t) => t.text('receivable_fingerprint'));
  await knex.raw(`create index stock_items_holding on stock_items (originator_id, receivable_fingerprint) where ${HOLDING_STOCK}`);
  await knex.raw(`create index titles_holding on titles (originator_id, receivable_fingerprint) where ${HOLDING_TITLE}`);

  for (const table of ['stock_items', 'titles'] as const) {
    await knex.raw(`create function ${table}_claims_apply() returns trigger language plpgsql as $$ ${claimsApply(table === 'titles' ? HOLDING_TITLE : HOLDING_STOCK)} $$`);
    await knex.raw(`create trigger ${table}_receivable_claims_insert after insert on ${table}
      referencing new table as new_rows for each statement execute function ${table}_claims_apply()`);
    await knex.raw(`create trigger ${table}_receivable_claims_update after update on ${table}
      referencing old table as old_rows new table as new_rows for each statement execute function ${table}_claims_apply()`);
    await knex.raw(`create trigger ${table}_receivable_claims_delete after delete on ${table}
      referencing old table as old_rows for each statement execute function ${table}_claims_apply()`);
  }

  await knex.schema.alterTable('operations', (t) => t.jsonb('review_reason'));
  await knex.schema.alterTable('policies', (t) => t.text('double_assignment').notNullable().defaultTo('review').checkIn(['refuse', 'review']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('policies', (t) => t.dropColumn('double_assignment'));
  await knex.schema.alterTable('operations', (t) => t.dropColumn('review_reason'));
  for (const table of ['stock_items', 'titles'] as const) {
    for (const event of ['insert', 'update', 'delete']) await knex.raw(`drop trigger ${table}_receivable_claims_${event} on ${table}`);
    await knex.raw(`drop function ${table}_claims_apply()`);
    await knex.schema.alterTable(table, (t) => t.dropColumn('receivable_fingerprint'));
  }
  await knex.schema.dropTable('receivable_claims');
}
