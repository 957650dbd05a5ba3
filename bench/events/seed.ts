import type { Knex } from 'knex';
import { EVENT_TYPES } from '../../domain/events';

/**
 * `count` events written by SQL in one statement per chunk: `originators` originators, five events
 * per object, spread over the last 30 days (and a tenth older, for the expiry to find), each
 * object's numbering filled in as recording would. A few undelivered pairs for the
 * delivery_success filter. Returns the originators' ids, busiest first.
 */
export async function seedEvents(db: Knex, count: number, originators: number): Promise<string[]> {
  const ids: string[] = (await db.raw(`
    insert into originators (id, name) select gen_random_uuid(), 'bench ' || n from generate_series(1, ?) n returning id`, [originators])).rows.map((r: { id: string }) => r.id);
  const chunk = 100_000;
  for (let from = 0; from < count; from += chunk) {
    await db.raw(`
      insert into events (event_id, originator_id, event_type, object_id, sequence, data, occurred_at, dispatched_at, created_at)
      select gen_random_uuid(), (?::uuid[])[1 + (n / 5) % ?], (?::text[])[1 + n % ?],
        md5('object-' || (n / 5))::uuid, 1 + n % 5, jsonb_build_object('n', n),
        now() - ((n % 33) || ' days')::interval - ((n % 86400) || ' seconds')::interval, now(), now()
      from generate_series(?::bigint, ?::bigint) n`,
    [ids, ids.length, [...EVENT_TYPES], EVENT_TYPES.length, from, Math.min(count, from + chunk) - 1]);
  }
  await db.raw('insert into event_sequences (object_id, last_sequence) select object_id, max(sequence) from events group by object_id on conflict do nothing');
  const [busiest] = ids;
  const subscription = (await db.raw(`
    insert into webhook_subscriptions (id, originator_id, url, event_types, secret) values (gen_random_uuid(), ?, 'https://bench.example/hooks', ?, 'unused')
    returning id`, [busiest, [...EVENT_TYPES]])).rows[0].id;
  await db.raw(`
    insert into webhook_pending_events (subscription_id, event_id, originator_id)
    select ?, event_id, originator_id from events where originator_id = ? order by occurred_at desc limit 500`, [subscription, busiest]);
  await db.raw('analyze');
  return ids;
}
