import type { Knex } from 'knex';

export interface Sample {
  ms: number;
  status: number;
}

export interface Summary {
  sent: number;
  created: number;
  failed: number;
  /** Statuses other than 201, with their counts (0: no answer within the timeout, or a connection error). */
  failures: Record<string, number>;
  perSecond: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);

export function summarise(samples: Sample[], seconds: number): Summary {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const created = samples.filter((s) => s.status === 201).length;
  const failures: Record<string, number> = {};
  for (const { status } of samples) if (status !== 201) failures[status] = (failures[status] ?? 0) + 1;
  return {
    sent: samples.length, created, failed: samples.length - created, failures, perSecond: created / seconds,
    min: sorted[0] ?? NaN, p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] ?? NaN,
  };
}

async function timed(send: () => Promise<number>, from: number): Promise<Sample> {
  const status = await send().catch(() => 0);
  return { ms: performance.now() - from, status };
}

/** `clients` loops sending back to back for `seconds`: the sustained throughput. */
export async function closedLoop(send: () => Promise<number>, clients: number, seconds: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < deadline) samples.push(await timed(send, performance.now()));
  }));
  return samples;
}

/**
 * A fixed arrival rate for `seconds`, whatever the answers take (open loop). Latency counts
 * from the moment a request was due, so a server falling behind cannot hide its queue.
 */
export async function openLoop(send: () => Promise<number>, perSecond: number, seconds: number): Promise<Sample[]> {
  const pending: Promise<Sample>[] = [];
  const start = performance.now();
  const total = Math.round(perSecond * seconds);
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(timed(send, due));
  }
  return Promise.all(pending);
}

/**
 * Samples what the database sessions of the run are doing every `everyMs`: waiting on a lock
 * (advisory, row), on the client (`idle in transaction`: a transaction open while the api
 * works in JavaScript), or running. Returns the mean number of sessions in each state.
 */
export function sampleSessions(db: Knex, everyMs = 50): { stop(): Promise<Record<string, number>> } {
  const totals = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await db.raw(`
        select case when state = 'idle in transaction' then 'idle in transaction (api working)'
                    when wait_event_type is null then 'running in Postgres'
                    else wait_event_type || ':' || wait_event end as what, count(*)::int as n
        from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state in ('active', 'idle in transaction')
        group by 1`);
      for (const row of rows as { what: string; n: number }[]) totals.set(row.what, (totals.get(row.what) ?? 0) + row.n);
      samples += 1;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return Object.fromEntries([...totals].sort((a, b) => b[1] - a[1]).map(([what, n]) => [what, n / Math.max(samples, 1)]));
    },
  };
}
