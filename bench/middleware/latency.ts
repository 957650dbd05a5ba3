/**
 * Added latency of the rate-limit and idempotency middlewares, per request, against real
 * Postgres over real HTTP: the same route through an api with rate limits on and one with them
 * off (RATE_LIMIT_ENABLED=false), with and without an Idempotency-Key (without one the
 * idempotency layer does nothing). Requests go one at a time, scenarios interleaved so that
 * machine noise hits them all alike.
 *
 *   npx tsx bench/middleware/latency.ts [requests per scenario, default 1500]
 *
 * Uses DATABASE_URL when set (a scratch database: it is migrated and seeded), otherwise starts
 * an embedded Postgres of its own under .data/.
 */
import path from 'node:path';
import { rmSync } from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../platform/config/config';
import { startApi, RunningApi } from '../../api/server';
import { createDb, migrate } from '../../db/connection';
import { DEV_SEED, seedDev } from '../../db/seeds/dev-seed';
import { cpf } from '../../test/support/documents';
import { benchSecrets } from '../support/secrets';

const ROOT = path.resolve(__dirname, '..', '..');
const REQUESTS = Number(process.argv[2] ?? 1500);
const WARMUP = 200;

async function database(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => undefined };
  const { startEmbeddedPostgres } = await import(path.join(ROOT, 'scripts', 'lib', 'postgres.mjs'));
  const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'ports.mjs'));
  const dataDir = path.join(ROOT, '.data', `bench-pg-${process.pid}`);
  const pg = await startEmbeddedPostgres({ dataDir, port: await freePort(), fast: true });
  return { url: pg.url('postgres'), stop: async () => { await pg.stop(); rmSync(dataDir, { recursive: true, force: true }); } };
}

function api(databaseUrl: string, rateLimits: boolean): Promise<RunningApi> {
  const high = String(1_000_000_000);
  return startApi(loadConfig({
    ...process.env, ...benchSecrets(), SERVICE_ENV: 'dev', PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl,
    RATE_LIMIT_ENABLED: String(rateLimits), RATE_LIMIT_IP_RPM: high, RATE_LIMIT_TOKEN_RPM: high, RATE_LIMIT_AUTH_TOKEN_RPM: high,
  }));
}

interface Scenario { name: string; baseline?: string; send(): Promise<Response> }

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (value: number) => value.toFixed(2);

async function main(): Promise<void> {
  const db = await database();
  const knex = createDb(db.url, 4);
  await migrate(knex);
  await seedDev(knex);
  const [plain, limited] = await Promise.all([api(db.url, false), api(db.url, true)]);
  const demo = DEV_SEED.originators[0];
  const tokenResponse = await fetch(`${plain.url}/v1/auth/token`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_id: demo.clientId, client_secret: demo.secret }),
  });
  const { access_token: token } = await tokenResponse.json() as { access_token: string };
  const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const create = (base: string, keyed: boolean) => () => fetch(`${base}/v1/assignors`, {
    method: 'POST',
    headers: keyed ? { ...auth, 'Idempotency-Key': randomUUID() } : auth,
    body: JSON.stringify({ name: 'Bench Assignor', type: 'F', cpf: cpf(), email: 'bench@example.com' }),
  });
  const read = (base: string) => () => fetch(`${base}/v1/assignors?limit=1`, { headers: auth });
  const scenarios: Scenario[] = [
    { name: 'POST /v1/assignors, neither', send: create(plain.url, false) },
    { name: 'POST /v1/assignors, rate limits', baseline: 'POST /v1/assignors, neither', send: create(limited.url, false) },
    { name: 'POST /v1/assignors, idempotency', baseline: 'POST /v1/assignors, neither', send: create(plain.url, true) },
    { name: 'POST /v1/assignors, both', baseline: 'POST /v1/assignors, neither', send: create(limited.url, true) },
    { name: 'GET /v1/assignors, neither', send: read(plain.url) },
    { name: 'GET /v1/assignors, rate limits', baseline: 'GET /v1/assignors, neither', send: read(limited.url) },
    // The yardstick: the middlewares add round trips to Postgres (rate limits one per check,
    // idempotency four), so their cost reads best in round trips on the same machine.
    { name: 'one Postgres round trip (select 1, no HTTP)', send: async () => { await knex.raw('select 1'); return new Response(null); } },
  ];
  const samples = new Map<string, number[]>(scenarios.map((s) => [s.name, []]));
  for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
    for (const scenario of scenarios) {
      const started = performance.now();
      const res = await scenario.send();
      await res.arrayBuffer();
      const elapsed = performance.now() - started;
      if (res.status >= 300) throw new Error(`${scenario.name}: HTTP ${res.status}`);
      if (i >= WARMUP) samples.get(scenario.name)!.push(elapsed);
    }
  }
  const stats = new Map([...samples].map(([name, values]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return [name, { min: sorted[0], median: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) }];
  }));
  const lines = [
    `${REQUESTS} sequential requests per scenario (after ${WARMUP} of warm-up), keep-alive, client in the same process;`
      + ` ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end.`,
    '',
    '| scenario | min ms | median ms | p99 ms | added at min | added at median | added at p99 | median ratio |',
    '|---|---|---|---|---|---|---|---|',
    ...scenarios.map((s) => {
      const own = stats.get(s.name)!;
      const base = s.baseline ? stats.get(s.baseline)! : null;
      const added = (q: 'min' | 'median' | 'p99') => (base ? ms(own[q] - base[q]) : '—');
      return `| ${s.name} | ${ms(own.min)} | ${ms(own.median)} | ${ms(own.p99)} | ${added('min')} | ${added('median')} | ${added('p99')} | ${base ? (own.median / base.median).toFixed(2) : '—'} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await Promise.all([plain.close(), limited.close(), knex.destroy()]);
  await db.stop();
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
