/**
 * What the double-assignment guard costs a direct creation (docs/decisions.md, "Double
 * assignment"), in process against real Postgres: `createDirectOperation` in its own committed
 * transaction, as the route runs it, for a body of 10 receivables each carrying a valid NF-e key
 * (key checks, claims, the look-up across originators, the claim triggers on the titles), against
 * the same body without NF-e fields (nothing to guard; the triggers still fire and find nothing).
 * The two variants run in alternating blocks, so the machine's load hits both alike. The
 * database already holds claims of this originator and of others, so the look-ups are not on
 * empty tables.
 *
 *   npx tsx bench/creation/guard.ts [creations per variant, default 300]
 *
 * Uses DATABASE_URL when set (a scratch database: migrated and written to), else an embedded
 * Postgres of its own. Temporal is not needed (the workflow start stays in the outbox).
 */
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { createDirectOperation, identifyReceivables } from '../../api/operations/creation/direct';
import { guardReceivables } from '../../api/operations/double-assignment';
import { createDb, migrate } from '../../db/connection';
import { PoliciesRepository } from '../../db/repositories/policies';
import { Dec, Money } from '../../domain/money';
import { readSentNfe } from '../../domain/nfe-key';
import { normaliseReceivables } from '../../domain/pricing';
import { cnpj } from '../../test/support/documents';
import { byPid, cpuBetween, parentOf, readCpu } from './cpu';
import { directBody } from './workload';
import type { SefazPort } from '../../domain/sefaz/port';
import type { Escriturador } from '../../domain/escriturador/port';
import { RegistrarError, SefazError } from '../../providers/provider-errors';
import { CipherRing, newCipherKeyEntry, parseCipherKeys } from '../../platform/crypto/cipher-ring';
import { TrustedRoots } from '../../platform/crypto/certificate-chain';

/** This bench measures the guard, not SEFAZ nor the escriturador: every key is created unchecked, as when neither answers in time. */
const unreached = () => Promise.reject(new SefazError('sefaz_unavailable', 'not asked in this bench', null));
const unregistered = () => Promise.reject(new RegistrarError('registrar_unavailable', 'not asked in this bench', null, null));
const UNREACHED = {
  sefaz: { port: { adapter: 'sandbox', consultStatus: unreached, payerEvents: unreached } satisfies SefazPort, budgetMs: 0 },
  registrar: { port: { lookup: unregistered, negotiate: unregistered, cancelAct: unregistered, status: unregistered, informPayment: unregistered } satisfies Escriturador, budgetMs: 0 },
};
/** The bench's bodies carry no NF-e XML: no root is trusted and nothing is sealed. */
const NO_NFE_XML = { roots: new TrustedRoots([]), ring: new CipherRing(parseCipherKeys(newCipherKeyEntry('bench'))) };

const PER_VARIANT = Number(process.argv[2] ?? 300);
const BLOCK = 20;
const PLENTY = Money.of('1000000000000.00');
const NFE_FIELDS = ['nfe_key', 'nfe_number', 'nfe_serie', 'nfe_issue_date'];

async function database(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => undefined };
  const infraModule = await import(path.join(__dirname, '..', '..', 'scripts', 'lib', 'infra.mjs'));
  const infra = await infraModule.startInfra({ purpose: 'test', env: { ...process.env, TEMPORAL_ADDRESS: 'unused:7233' } });
  const url: string = await infraModule.createDatabase(infra.serverUrl, `ra_bench_guard_${process.pid}`, { recreate: true });
  return { url, stop: () => infra.stop() };
}

async function seedOriginator(db: Knex, name: string): Promise<string> {
  const id = uuidv7();
  await db('originators').insert({ id, name });
  await new PoliciesRepository(db, id).create({
    name: 'Bench policy', active: true, minOperationValueBrl: null, maxOperationValueBrl: null,
    autoApproveLimitBrl: PLENTY, aggregateLimitBrl: PLENTY, assignorDefaultLimitBrl: PLENTY, payerDefaultLimitBrl: PLENTY,
    riskAnchoring: 'both', minCetMonthlyPct: new Dec('0.5'), maxCetMonthlyPct: new Dec('15'),
    fees: { monthlyRatePct: new Dec('2.5'), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 0 },
    maxReceivablesPerOperation: 500, graceDays: 3,
  });
  return id;
}

/** Claims of this and other originators already in the table (20,000 keys), as a running book would have. */
async function existingClaims(db: Knex, originators: string[]): Promise<void> {
  for (let batch = 0; batch < 20; batch += 1) {
    await db('receivable_claims').insert(Array.from({ length: 1000 }, (_, i) => ({
      originator_id: originators[(batch * 1000 + i) % originators.length], fingerprint: `nfe:8${String(batch * 1000 + i).padStart(43, '0')}`,
    })));
  }
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main(): Promise<void> {
  const target = await database();
  const db = createDb(target.url, 2);
  try {
    await migrate(db);
    const originatorId = await seedOriginator(db, 'Bench originator');
    await existingClaims(db, [originatorId, await seedOriginator(db, 'Other originator A'), await seedOriginator(db, 'Other originator B')]);
    const originator = { token: '', assignors: Array.from({ length: 100 }, cnpj), payers: Array.from({ length: 20 }, cnpj) };
    const { rows: [{ pid }] } = await db.raw('select pg_backend_pid() as pid');
    const meter = { postgres: byPid(parentOf(pid) ?? pid) };

    const variants = {
      'with NF-e keys (guarded)': () => directBody(originator),
      'without NF-e fields (nothing to guard)': () => {
        const body = directBody(originator);
        for (const r of body.receivables as Record<string, unknown>[]) for (const field of NFE_FIELDS) delete r[field];
        return body;
      },
    };
    const create = (body: Record<string, unknown>) => db.transaction((trx) => createDirectOperation(trx, originatorId, 'dev', body as never, { now: new Date(), clock: null }, UNREACHED, NO_NFE_XML));
    /** The guard's own work for a fresh body, in a committed transaction of its own: key checks, fingerprints, claims, look-up. */
    const guardOnly = (body: Record<string, unknown>) => db.transaction(async (trx) => {
      const raw = body.receivables as Record<string, unknown>[];
      const guarded = identifyReceivables(raw.map(readSentNfe), normaliseReceivables(raw, { route: 'direct' }), body.cnpj as string);
      await guardReceivables(trx, originatorId, guarded, 'review');
    });
    const runs: Record<string, () => Promise<unknown>> = {
      'creation, with NF-e keys (guarded)': () => create(variants['with NF-e keys (guarded)']()),
      'creation, without NF-e fields (nothing to guard)': () => create(variants['without NF-e fields (nothing to guard)']()),
      'the guard alone (10 keys) in its own transaction': () => guardOnly(variants['with NF-e keys (guarded)']()),
      'an empty transaction (its floor)': () => db.transaction(async () => undefined),
    };
    const samples = new Map(Object.keys(runs).map((name) => [name, [] as number[]]));
    const cpu = new Map(Object.keys(runs).map((name) => [name, { node: 0, postgres: 0 }]));
    for (let i = 0; i < 2 * BLOCK; i += 1) await create(Object.values(variants)[i % 2]());

    const loadBefore = os.loadavg();
    for (let done = 0; done < PER_VARIANT; done += BLOCK) {
      for (const [name, run] of Object.entries(runs)) {
        const [pgBefore, nodeBefore] = [readCpu(meter), process.cpuUsage()];
        for (let i = 0; i < BLOCK; i += 1) {
          const started = performance.now();
          await run();
          samples.get(name)!.push(performance.now() - started);
        }
        const node = process.cpuUsage(nodeBefore);
        const spent = cpu.get(name)!;
        spent.node += (node.user + node.system) / 1000;
        spent.postgres += cpuBetween(pgBefore, readCpu(meter)).postgres;
      }
    }
    const loadAfter = os.loadavg();

    const lines = [
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}; load average (1, 5, 15 min) before ${loadBefore.map((l) => l.toFixed(1)).join(', ')}, after ${loadAfter.map((l) => l.toFixed(1)).join(', ')}.`,
      `${PER_VARIANT} creations per variant in blocks of ${BLOCK}, alternating; 10 receivables each; 20,000 claims already in the table.`,
      '',
      '| run | min ms | p50 ms | p90 ms | p99 ms | CPU ms / run (node) | CPU ms / run (Postgres) |',
      '|---|---|---|---|---|---|---|',
    ];
    const medians: number[] = [];
    for (const name of Object.keys(runs)) {
      const sorted = samples.get(name)!.sort((a, b) => a - b);
      const spent = cpu.get(name)!;
      medians.push(quantile(sorted, 0.5));
      lines.push(`| ${name} | ${sorted[0].toFixed(2)} | ${quantile(sorted, 0.5).toFixed(2)} | ${quantile(sorted, 0.9).toFixed(2)} | ${quantile(sorted, 0.99).toFixed(2)} | ${(spent.node / sorted.length).toFixed(2)} | ${(spent.postgres / sorted.length).toFixed(2)} |`);
    }
    lines.push('', `Guard cost per creation at the median: ${(medians[0] - medians[1]).toFixed(2)} ms (guarded − nothing to guard), `
      + `${(medians[2] - medians[3]).toFixed(2)} ms (the guard alone − an empty transaction).`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await db.destroy();
    await target.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
