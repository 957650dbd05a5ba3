import type { Knex } from 'knex';

/**
 * Issue #27's ordering: every event names the object it is about (`object_id`: an operation,
 * title, payable, stock item or webhook endpoint) and carries `sequence`, which counts that
 * object's events one by one. `event_sequences` holds each object's last number; recording an
 * event takes that row's lock, so two transactions writing events of one object are numbered in
 * commit order and never share a number (the unique index says so). `position` is the global
 * order rows were written in: taken after that lock, it agrees with every object's sequence, so
 * a replay in `position` order is in sequence order per object.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table events add column object_id uuid, add column sequence integer, add column position bigserial');
  await knex.raw(`
    update events set object_id = coalesce(case
      when event_type like 'title.%' then data->>'title_id'
      when event_type like 'payable.%' then data->>'payable_id'
      when event_type like 'stock.%' then data->>'stock_item_id'
      when event_type like 'webhook_endpoint.%' then data->>'webhook_id'
      else data->>'operation_id' end, event_id::text)::uuid`);
  await knex.raw(`
    update events e set sequence = n.sequence
    from (select event_id, row_number() over (partition by object_id order by position) as sequence from events) n
    where n.event_id = e.event_id`);
  await knex.raw('alter table events alter column object_id set not null, alter column sequence set not null');
  await knex.raw('create unique index events_object_sequence on events (object_id, sequence)');
  await knex.schema.createTable('event_sequences', (t) => {
    t.uuid('object_id').primary();
    t.integer('last_sequence').notNullable();
  });
  await knex.raw('insert into event_sequences (object_id, last_sequence) select object_id, max(sequence) from events group by object_id');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('event_sequences');
  await knex.raw('alter table events drop column position, drop column sequence, drop column object_id');
}
