/**
 * Pricing at 1, 10, 100 and 1,000 receivables: the engine in process (normalise, price, render,
 * each timed), then `POST /v1/simulate` over real HTTP against real Postgres (policy and fee
 * defaults read, the whole pipeline). Target: 1,000 receivables under 20 ms of engine time.
 *
 *   npx tsx bench/pricing/run.ts [runs per size, default 200]
 *
 * Uses DATABASE_URL when set (a scratch database: it is migrated and seeded), otherwise starts
 * an embedded Postgres of its own. Temporal is not needed: simulation never touches it.
 */
import path from 'node:path';
import { cpus, loadavg } from 'node:os';
import { loadConfig } from '../../platform/config/config';
import { startApi } from '../../api/server';
import { createDb, migrate } from '../../db/connection';
import { DEV_SEED, seedDev } from '../../db/seeds/dev-seed';
import { Dec, Money } from '../../domain/money';
import {
  businessDate, normalisePricingRequest, priceOperation, PricingPolicy, renderPricedOperation, renderPricedReceivable,
} from '../../domain/pricing';
import { benchSecrets } from '../support/secrets';
import { pricingBody as body } from '../support/pricing-body';

const SIZES = [1, 10, 100, 1000];
const RUNS = Number(process.argv[2] ?? 200);
const POLICY: PricingPolicy = {
  fees: { monthlyRatePct: new Dec('2.5'), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 1 },
  minCetMonthlyPct: new Dec('0.5'), maxCetMonthlyPct: new Dec(15),
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const ms = (value: number) => value.toFixed(3);

/** Engine = normalise + price (what creation also runs); render is the response body, timed apart. */
function engine(today: string): string[] {
  const lines = [
    row(['receivables', 'normalise p50', 'price p50', 'engine min', 'engine p50', 'engine p95', 'render + JSON p50']),
    row(['---', '---', '---', '---', '---', '---', '---']),
  ];
  for (const size of SIZES) {
    const raw = body(size, today);
    const samples: number[][] = [];
    for (let run = 0; run < RUNS + 20; run++) {
      const t0 = performance.now();
      const request = normalisePricingRequest(raw, { route: 'simulate' });
      const t1 = performance.now();
      const op = priceOperation({ ...request, policy: POLICY, assignorDefaults: null, payerDefaultsByDocument: new Map(), businessDate: today });
      const t2 = performance.now();
      JSON.stringify({ ...renderPricedOperation(op), receivables: op.receivables.map(renderPricedReceivable) });
      const t3 = performance.now();
      if (run >= 20) samples.push([t1 - t0, t2 - t1, t2 - t0, t3 - t2]);
    }
    const column = (i: number) => samples.map((s) => s[i]).sort((a, b) => a - b);
    const total = column(2);
    lines.push(row([size, ms(quantile(column(0), 0.5)), ms(quantile(column(1), 0.5)), ms(total[0]), ms(quantile(total, 0.5)), ms(quantile(total, 0.95)), ms(quantile(column(3), 0.5))]));
  }
  return lines;
}

async function database(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => undefined };
  const { startInfra } = await import(path.join(__dirname, '..', '..', 'scripts', 'lib', 'infra.mjs'));
  const infra = await startInfra({ purpose: 'test', env: { ...process.env, TEMPORAL_ADDRESS: 'unused:7233' } });
  return { url: infra.serverUrl, stop: () => infra.stop() };
}

async function overHttp(today: string): Promise<string[]> {
  const db = await database();
  const knex = createDb(db.url, 2);
  await migrate(knex);
  await seedDev(knex);
  await knex.destroy();
  const high = String(1_000_000_000);
  const api = await startApi(loadConfig({
    ...process.env, ...benchSecrets(), SERVICE_ENV: 'dev', PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: db.url, TEMPORAL_ADDRESS: 'unused:7233',
    RATE_LIMIT_IP_RPM: high, RATE_LIMIT_TOKEN_RPM: high, RATE_LIMIT_AUTH_TOKEN_RPM: high,
  }));
  const demo = DEV_SEED.originators[0];
  const post = (route: string, payload: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(payload) });
  const { access_token: token } = await (await post('/v1/auth/token', { client_id: demo.clientId, client_secret: demo.secret })).json() as { access_token: string };
  const lines = [row(['receivables', 'request bytes', 'p50 ms', 'p95 ms', 'max ms']), row(['---', '---', '---', '---', '---'])];
  try {
    for (const size of SIZES) {
      const payload = body(size, today);
      const runs = size >= 1000 ? Math.max(20, RUNS / 4) : RUNS;
      const latencies: number[] = [];
      for (let run = 0; run < runs + 5; run++) {
        const started = performance.now();
        const response = await post('/v1/simulate', payload, { Authorization: `Bearer ${token}` });
        if (response.status !== 200) throw new Error(`simulate answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
        if (run >= 5) latencies.push(performance.now() - started);
      }
      latencies.sort((a, b) => a - b);
      lines.push(row([size, JSON.stringify(payload).length, ms(quantile(latencies, 0.5)), ms(quantile(latencies, 0.95)), ms(latencies.at(-1)!)]));
    }
  } finally {
    await api.close();
    await db.stop();
  }
  return lines;
}

async function main(): Promise<void> {
  const today = businessDate(new Date());
  process.stdout.write(`Load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores\n\n`);
  process.stdout.write(`Engine, in process (${RUNS} runs per size, ms):\n\n${engine(today).join('\n')}\n\n`);
  process.stdout.write(`POST /v1/simulate over HTTP (ms):\n\n${(await overHttp(today)).join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
