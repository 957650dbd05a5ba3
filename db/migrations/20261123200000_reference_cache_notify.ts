import type { Knex } from 'knex';

/**
 * Tells every api process which cached reference data changed (docs/decisions.md "Caches"): one
 * NOTIFY on `reference_changed` per changed row, delivered at commit, payload `table:scope` where
 * the scope is the originator (policies, products, fee defaults) or the row itself (credentials,
 * users). Identical payloads of one transaction collapse into one. Assignors and payers only
 * notify when their fee defaults change: the rows creation registers without fees price like no
 * row at all. A TRUNCATE says `table:*`.
 */
const FEES = ['monthly_rate_pct', 'discount_pct', 'fixed_discount_brl', 'floating_days'];

const SOURCES: { table: string; scope: string; fees?: boolean }[] = [
  { table: 'api_credentials', scope: 'id' },
  { table: 'users', scope: 'id' },
  { table: 'policies', scope: 'originator_id' },
  { table: 'products', scope: 'originator_id' },
  { table: 'assignors', scope: 'originator_id', fees: true },
  { table: 'payers', scope: 'originator_id', fees: true },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function notify_reference_changed() returns trigger language plpgsql as $$
    declare
      scope text;
    begin
      if tg_level = 'STATEMENT' then
        scope := '*';
      elsif tg_op = 'DELETE' then
        scope := to_jsonb(old) ->> tg_argv[0];
      else
        scope := to_jsonb(new) ->> tg_argv[0];
      end if;
      perform pg_notify('reference_changed', tg_table_name || ':' || scope);
      return null;
    end $$`);
  for (const { table, scope, fees } of SOURCES) {
    const fire = `for each row execute function notify_reference_changed('${scope}')`;
    if (fees) {
      await knex.raw(`create trigger ${table}_fees_inserted after insert on ${table}
        for each row when (${FEES.map((c) => `new.${c} is not null`).join(' or ')}) execute function notify_reference_changed('${scope}')`);
      await knex.raw(`create trigger ${table}_fees_updated after update of document, ${FEES.join(', ')} on ${table}
        for each row when (${['document', ...FEES].map((c) => `old.${c} is distinct from new.${c}`).join(' or ')}) execute function notify_reference_changed('${scope}')`);
      await knex.raw(`create trigger ${table}_fees_deleted after delete on ${table} ${fire}`);
    } else {
      await knex.raw(`create trigger ${table}_reference_changed after insert or update or delete on ${table} ${fire}`);
    }
    await knex.raw(`create trigger ${table}_reference_truncated after truncate on ${table}
      for each statement execute function notify_reference_changed('${scope}')`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table, fees } of SOURCES) {
    const triggers = fees ? ['fees_inserted', 'fees_updated', 'fees_deleted'] : ['reference_changed'];
    for (const trigger of [...triggers, 'reference_truncated']) await knex.raw(`drop trigger ${table}_${trigger} on ${table}`);
  }
  await knex.raw('drop function notify_reference_changed()');
}
