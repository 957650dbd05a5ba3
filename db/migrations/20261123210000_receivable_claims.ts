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
 * closes a title): see `claimsApply`. A continuation of the same receivable (a partial-anticipation
 * remainder, the title of an anticipated stock item) adds no claim of its own.
 * They run after the exposure triggers (names sort after them), so a release locks the exposure
 * counters before any claim, as creation does.
 *
 * `operations.review_reason` records why an operation was sent to human approval regardless of
 * its amount (a receivable held by another originator); `policies.double_assignment` decides
 * between refusing that and reviewing it.
 */
const holding = (table: 'stock_items' | 'titles', row: string) => (table === 'titles'
  ? `title_counts_as_exposure(${row}.status) and ${row}.receivable_fingerprint is not null`
  : `${row}.status = 'IN_STOCK' and ${row}.receivable_fingerprint is not null`);

/**
 * Rows that stopped holding (deleted, closed, cancelled, or now another receivable) drop their
 * claim once nothing holds it; rows whose holding did not change (a payment on an open title)
 * cost a join and nothing else. A stock item that becomes ANTICIPATED hands its claim to the title
 * its operation inserts in the same transaction, so its claim stays; stock items that enter
 * IN_STOCK (registration, a remainder, the return of a denied or cancelled operation's items)
 * ensure theirs. Titles never ensure: creation claims new receivables itself and a title of a
 * stock item inherits the item's claim.
 */
function claimsApply(table: 'stock_items' | 'titles'): string {
  const release = (from: string, stopped: string) => `delete from receivable_claims c
    using (select o.originator_id, o.receivable_fingerprint from ${from} where ${holding(table, 'o')} and ${stopped}) o
    where c.originator_id = o.originator_id and c.fingerprint = o.receivable_fingerprint
      and not exists (select 1 from stock_items s where s.originator_id = c.originator_id and s.receivable_fingerprint = c.fingerprint and s.status = 'IN_STOCK')
      and not exists (select 1 from titles t where t.originator_id = c.originator_id and t.receivable_fingerprint = c.fingerprint and title_counts_as_exposure(t.status))`;
  const handedOver = table === 'stock_items' ? " and n.status <> 'ANTICIPATED'" : '';
  const onUpdate = release('old_rows o join new_rows n on n.id = o.id', `not (${holding(table, 'n')} and n.receivable_fingerprint = o.receivable_fingerprint)${handedOver}`);
  const ensure = `insert into receivable_claims (originator_id, fingerprint)
    select distinct n.originator_id, n.receivable_fingerprint from new_rows n where ${holding(table, 'n')}
    order by 1, 2 on conflict do nothing`;
  return `
    begin
      if TG_OP = 'UPDATE' then ${onUpdate}; elsif TG_OP = 'DELETE' then ${release('old_rows o', 'true')}; end if;
      ${table === 'stock_items' ? `if TG_OP in ('INSERT', 'UPDATE') then ${ensure}; end if;` : ''}
      return null;
    end`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('receivable_claims', (t) => {
    // No foreign key: a claim is derived from rows that reference their originator already, and
    // the per-row check would cost every creation ten look-ups under a share lock.
    t.uuid('originator_id').notNullable();
    t.text('fingerprint').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Fingerprint first: the signal across originators looks a key up whoever holds it.
    t.primary(['fingerprint', 'originator_id']);
  });
  await knex.schema.alterTable('stock_items', (t) => t.text('receivable_fingerprint'));
  await knex.schema.alterTable('titles', (t) => t.text('receivable_fingerprint'));
  for (const table of ['stock_items', 'titles'] as const) {
    await knex.raw(`create index ${table}_holding on ${table} (originator_id, receivable_fingerprint) where ${holding(table, table)}`);
    await knex.raw(`create function ${table}_claims_apply() returns trigger language plpgsql as $$ ${claimsApply(table)} $$`);
    if (table === 'stock_items') {
      await knex.raw(`create trigger ${table}_receivable_claims_insert after insert on ${table}
        referencing new table as new_rows for each statement execute function ${table}_claims_apply()`);
    }
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
    for (const event of ['insert', 'update', 'delete']) await knex.raw(`drop trigger if exists ${table}_receivable_claims_${event} on ${table}`);
    await knex.raw(`drop function ${table}_claims_apply()`);
    await knex.schema.alterTable(table, (t) => t.dropColumn('receivable_fingerprint'));
  }
  await knex.schema.dropTable('receivable_claims');
}
