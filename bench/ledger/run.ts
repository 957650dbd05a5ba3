/**
 * Issue #48's list figure, measured as bench/events measures the events list (NOT on a shared
 * machine: the ratio needs a quiet one): `GET /v1/ledger/transactions?operation_id=` against bare
 * Express 5 answering the same response bytes from memory (target ≥ 25 %), with CPU ms per request
 * of the api and of Postgres.
 *
 *   npm run bench:ledger -- [--seconds 8] [--warmup 2] [--connections 10] [--operations 10] [--accrual-days 30] [--profile-api DIR]
 *
 * The books are the real ones: `--operations` operations of 10 NF-e receivables each, over two
 * originators, taken from creation to PAID through the api, the worker and the sandbox (each title's
 * acquisition and the payout posted as the lifecycle posts them), then `--accrual-days` days of the
 * daily accrual posted for every title (the accrual's own repository, one day after another), so
 * the operation read is a month into its life: its first page of 50 holds the acquisitions, the
 * payout and accruals, and `total` counts hundreds.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LedgerAccrualsRepository } from '../../db/repositories/ledger-accruals';
import { ApiClient } from '../../test/support/http';
import { startStack, stackComponents } from '../creation/stack';
import { seedOriginators } from '../creation/workload';
import { toPaid } from '../lifecycle/to-paid';
import { AGAINST_BARE_HEADER, againstBare, loopOptions } from '../support/against-bare';
import { option } from '../support/options';
import { apiProfileEnv } from '../support/profile-env';
import { runBench } from '../support/run-bench';

const LOOP = loopOptions();
const OPERATIONS = Number(option('operations', '10'));
const ACCRUAL_DAYS = Number(option('accrual-days', '30'));
const PROFILE_DIR = option('profile-api', '');
/** Operations taken to PAID at once: enough to overlap, few enough not to queue behind each other. */
const AT_ONCE = 4;
const DAY_MS = 86_400_000;
const LEDGER_TABLES = ['ledger_transactions', 'ledger_entries', 'ledger_accounts'];
const say = (line: string) => process.stderr.write(`[bench:ledger] ${line}\n`);

async function main(): Promise<void> {
  const stack = await startStack({
    worker: true, apiEnv: { RATE_LIMIT_ENABLED: 'false', ...apiProfileEnv(PROFILE_DIR) }, sandboxEnv: { SANDBOX_SETTLEMENT_DELAY_MS: '0' },
  });
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-ledger-'));
  try {
    // The integrator's books beside another originator's, so the list reads one tenant among others.
    const [integrator, other] = await seedOriginators(stack.db, stack.apiUrl, 2, true);
    const client = new ApiClient(stack.apiUrl);
    const paid: string[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: AT_ONCE }, async () => {
      while (next < OPERATIONS) {
        const originator = next % 2 === 0 ? integrator : other;
        next += 1;
        const outcome = await toPaid(stack.db, client, originator, 10);
        if ('failure' in outcome) throw new Error(`an operation did not reach PAID: ${outcome.failure}`);
        if (originator === integrator) paid.push(outcome.id);
      }
    }));
    say(`${OPERATIONS} operations PAID; posting ${ACCRUAL_DAYS} days of accrual`);
    const accruals = new LedgerAccrualsRepository(stack.db);
    for (let day = 1; day <= ACCRUAL_DAYS; day += 1) await accruals.postDue(new Date(Date.now() + day * DAY_MS));
    // As bench/events: a page that stays put is one autovacuum has passed over (all-visible heap
    // pages). The bench's Postgres commits asynchronously and a vacuum cannot mark a page whose
    // commit is not flushed yet; the WAL writer flushes them within its delay (200 ms).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const table of LEDGER_TABLES) await stack.db.raw(`vacuum (analyze) ${table}`);
    const visibility: { relname: string; relallvisible: number; relpages: number }[] = (await stack.db.raw(
      'select relname, relallvisible, relpages from pg_class where relname = any(?) order by relname', [LEDGER_TABLES])).rows;
    const operationId = paid[Math.floor(paid.length / 2)];
    const { count: ofOperation } = await stack.db('ledger_transactions').where({ operation_id: operationId }).count().first() as { count: string };
    const { count: all } = await stack.db('ledger_transactions').count().first() as { count: string };
    const components = await stackComponents(stack);
    const loadBefore = os.loadavg();
    const row = await againstBare(stack.apiUrl, `/v1/ledger/transactions?operation_id=${operationId}`, { Authorization: `Bearer ${integrator.token}` },
      { api: components.api, postgres: components.postgres }, LOOP, folder);
    process.stdout.write([
      `bench/ledger: ${LOOP.connections} connections, ${LOOP.seconds} s after ${LOOP.warmup} s; ${OPERATIONS} operations PAID, ${ACCRUAL_DAYS} days of accrual: ${all} ledger transactions, ${ofOperation} of the listed operation (the page shows the first 50); vacuumed (${visibility.map((v) => `${v.relname} ${v.relallvisible} of ${v.relpages} heap pages all-visible`).join(', ')}); load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} after (the worker idles beside the api)`,
      '',
      ...AGAINST_BARE_HEADER,
      row,
      '',
    ].join('\n'));
  } finally {
    await stack.stop();
  }
}

runBench(main);
