import type { Knex } from 'knex';

export const MINUTE = 60;

/** Runs on every request: prepared once per connection, it skips parsing and planning (a third of its cost). */
const PREPARED = { name: 'rate_limit_admit' };

export type Admission = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/**
 * Admits one request into the bucket's sliding window, in one statement: the upsert locks the
 * bucket's row, so concurrent requests from any process are counted exactly. Seconds older than
 * the window are dropped as it slides. A refused request leaves the window unchanged (the `where`
 * of the update), so hammering does not extend a ban. The window is a minute unless the bucket
 * says otherwise (at most `limit` seconds are kept, whatever its length).
 */
export async function admit(db: Knex, bucket: string, limit: number, now: Date, windowSeconds = MINUTE): Promise<Admission> {
  const second = Math.floor(now.getTime() / 1000);
  const { rows } = await db.raw(
    `insert into rate_limit_windows as w (bucket, seconds, counts, window_seconds) values (:bucket, array[:second::bigint], array[1], :window::int)
     on conflict (bucket) do update
       set (seconds, counts) = (
         select array_agg(s order by s), array_agg(c order by s) from (
           select s, c + (s = :second::bigint)::int as c from unnest(w.seconds, w.counts) as live(s, c) where s > :since::bigint
           union all
           select :second::bigint, 1 where :second::bigint <> all(w.seconds)
         ) as slid)
       where (select coalesce(sum(c), 0) from unnest(w.seconds, w.counts) as live(s, c) where s > :since::bigint) < :limit::int
     returning (select sum(c) from unnest(seconds, counts) as live(s, c))::int as used`,
    { bucket, second, since: second - windowSeconds, limit, window: windowSeconds },
  ).options(PREPARED);
  if (rows.length === 1) return { allowed: true, remaining: Math.max(0, limit - rows[0].used) };
  return { allowed: false, retryAfterSeconds: await secondsUntilSlot(db, bucket, limit, now, windowSeconds) };
}

/** A slot frees when enough of the oldest seconds have left the window to bring the count under the limit. */
async function secondsUntilSlot(db: Knex, bucket: string, limit: number, now: Date, windowSeconds: number): Promise<number> {
  const since = Math.floor(now.getTime() / 1000) - windowSeconds;
  const row: { seconds: string[]; counts: number[] } | undefined = await db('rate_limit_windows').where({ bucket }).first('seconds', 'counts');
  // bigint[] arrives as strings; seconds ascending.
  const live = (row?.seconds ?? []).map((s, i) => [Number(s), row!.counts[i]]).filter(([s]) => s > since);
  let inWindow = live.reduce((sum, [, c]) => sum + c, 0);
  for (const [s, c] of live) {
    inWindow -= c;
    if (inWindow < limit) return Math.max(1, Math.ceil(((s + windowSeconds) * 1000 - now.getTime()) / 1000));
  }
  return 1;
}

/** Buckets whose newest second left their window hold nothing worth keeping. */
export async function purgeIdleWindows(db: Knex, now: Date): Promise<number> {
  const second = Math.floor(now.getTime() / 1000);
  const { rowCount } = await db.raw('delete from rate_limit_windows where seconds[cardinality(seconds)] <= ? - window_seconds', [second]);
  return rowCount ?? 0;
}
