import type { Knex } from 'knex';

/**
 * Open exposure as counters (DESIGN.md §7, docs/decisions.md "Exposure counters"): one row per
 * originator, per assignor and per payer of an originator, holding Σ outstanding_balance of the
 * titles whose status counts as open. Kept exact by statement-level triggers on `titles`, so every
 * write path of titles (creation, payer payments, overdue, netting, payable payments, credits,
 * write-off, denial, cancellation) moves them without knowing they exist.
 *
 * Lock order: a statement touches the counters of one originator in the order (originator row,
 * assignor rows, payer rows), each by entity id; creation locks them in the same order
 * (`ExposureRepository.lockForOperation`). The originator row comes first, so it is the gate: a
 * transaction holding any counter of an originator holds its originator row, and counters taken by
 * later statements of the same transaction cannot deadlock with anyone else's.
 */

// Keep equal to OPEN_TITLE_STATUSES (domain/operation-lifecycle.ts); test/api/exposure-counters.test.ts checks it.
const OPEN = "('WAITING_PAYMENT', 'PARTIALLY_PAID', 'OVERDUE')";

/** Σ of the signed contributions in `moved`, per counter, applied in lock order; counters that do not move are not touched. */
function applyMoved(moved: string): string {
  return `
    with moved (originator_id, assignor_id, payer_id, amount) as (${moved}),
    deltas (originator_id, scope, entity_id, amount) as (
      select originator_id, 'originator', originator_id, sum(amount) from moved group by originator_id
      union all
      select originator_id, 'assignor', assignor_id, sum(amount) from moved group by originator_id, assignor_id
      union all
      select originator_id, 'payer', payer_id, sum(amount) from moved group by originator_id, payer_id
    )
    insert into exposure_counters as c (originator_id, scope, entity_id, open_exposure)
    select d.originator_id, d.scope, d.entity_id, d.amount from deltas d
    -- the originator row is taken whenever any counter of it moves: it is the gate of the lock order
    where d.amount <> 0 or (d.scope = 'originator' and exists (select 1 from deltas e where e.originator_id = d.originator_id and e.amount <> 0))
    order by d.originator_id, d.scope <> 'originator', d.scope, d.entity_id
    on conflict (originator_id, scope, entity_id) do update set open_exposure = c.open_exposure + excluded.open_exposure`;
}

const entering = "select originator_id, assignor_id, payer_id, outstanding_balance from new_titles where title_counts_as_exposure(status)";
const leaving = "select originator_id, assignor_id, payer_id, -outstanding_balance from old_titles where title_counts_as_exposure(status)";

export async function up(knex: Knex): Promise<void> {
  // No title write may slip between the backfill and the triggers (reads go on).
  await knex.raw('lock table titles in share row exclusive mode');
  await knex.schema.createTable('exposure_counters', (t) => {
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('scope').notNullable().checkIn(['originator', 'assignor', 'payer']);
    // The originator's own id for scope 'originator', else the assignor's or the payer's.
    t.uuid('entity_id').notNullable();
    t.decimal('open_exposure', 20, 2).notNullable().defaultTo(0);
    t.primary(['originator_id', 'scope', 'entity_id']);
  });

  await knex.raw(`
    create function title_counts_as_exposure(status text) returns boolean language sql immutable parallel safe
    as $$ select status in ${OPEN} $$`);

  await knex.raw(`
    create function titles_exposure_apply() returns trigger language plpgsql as $$
    begin
      if TG_OP = 'INSERT' then
        ${applyMoved(entering)};
      elsif TG_OP = 'UPDATE' then
        ${applyMoved(`${leaving} union all ${entering}`)};
      elsif TG_OP = 'DELETE' then
        ${applyMoved(leaving)};
      else -- TRUNCATE: no title is left
        delete from exposure_counters;
      end if;
      return null;
    end $$`);
  await knex.raw(`create trigger titles_exposure_insert after insert on titles
    referencing new table as new_titles for each statement execute function titles_exposure_apply()`);
  await knex.raw(`create trigger titles_exposure_update after update on titles
    referencing old table as old_titles new table as new_titles for each statement execute function titles_exposure_apply()`);
  await knex.raw(`create trigger titles_exposure_delete after delete on titles
    referencing old table as old_titles for each statement execute function titles_exposure_apply()`);
  await knex.raw(`create trigger titles_exposure_truncate after truncate on titles
    for each statement execute function titles_exposure_apply()`);

  await knex.raw(`
    insert into exposure_counters (originator_id, scope, entity_id, open_exposure)
    select originator_id, 'originator', originator_id, sum(outstanding_balance) from titles where title_counts_as_exposure(status) group by originator_id
    union all
    select originator_id, 'assignor', assignor_id, sum(outstanding_balance) from titles where title_counts_as_exposure(status) group by originator_id, assignor_id
    union all
    select originator_id, 'payer', payer_id, sum(outstanding_balance) from titles where title_counts_as_exposure(status) group by originator_id, payer_id`);
}

export async function down(knex: Knex): Promise<void> {
  for (const event of ['insert', 'update', 'delete', 'truncate']) await knex.raw(`drop trigger titles_exposure_${event} on titles`);
  await knex.raw('drop function titles_exposure_apply()');
  await knex.raw('drop function title_counts_as_exposure(text)');
  await knex.schema.dropTable('exposure_counters');
}
