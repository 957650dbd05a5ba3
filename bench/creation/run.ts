/**
 * Direct creation (POST /v1/operations/direct, 10 receivables) against a local stack: real
 * Postgres, real Temporal, api + worker + sandbox providers as separate processes.
 *
 *   npm run bench:creation -- [--seconds 20] [--clients 1,4,16,32] [--rate 50] [--originators 8] [--payers 20]
 *                              [--waiting] [--no-worker] [--profile-api DIR]
 *
 * --payers: payer documents per originator (each operation draws its 10 from them; fewer means
 * more operations share a payer row lock); --rate 0 skips the fixed-rate phase;
 * --waiting: operations born WAITING_APPROVAL (no contract dispatch behind them); --no-worker: no
 * worker at all; --profile-api DIR: the api writes a V8 CPU profile (.cpuprofile) to DIR on exit.
 *
 * Phases: warm-up; a fixed arrival rate (latency p50/p99); closed loops of N clients on ONE
 * originator (sustained creations/s); the largest N spread over several originators (what the
 * per-originator serialisation of the credit-limit check costs). While each runs, the database
 * sessions are sampled to show where the time goes. Prints a markdown report on stdout.
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuBetween, readCpu } from './cpu';
import { closedLoop, openLoop, Sample, sampleSessions, summarise, Summary } from './load';
import { startStack, stackComponents, BenchStack } from './stack';
import { createOne, Originator, seedOriginators } from './workload';
import { option } from '../support/options';

const flag = (name: string) => process.argv.includes(`--${name}`);

const SECONDS = Number(option('seconds', '20'));
const CLIENTS = option('clients', '1,4,16,32').split(',').map(Number);
const RATE = Number(option('rate', '50'));
const ORIGINATORS = Number(option('originators', '8'));
const WORKER = !flag('no-worker');
const APPROVED = !flag('waiting');
const PROFILE_DIR = option('profile-api', '');
const PAYERS = Number(option('payers', '20'));

const f1 = (n: number) => n.toFixed(1);
const say = (line: string) => process.stderr.write(`[bench:creation] ${line}\n`);

interface Row { phase: string; titlesBefore: number; summary: Summary; sessions: Record<string, number>; cpuPerCreation: Record<string, number>; busyCores: number; load: string }

/** Waits until the api has finished what an overloaded phase left queued (up to 2 minutes), so it does not spill into the next. */
async function drain(stack: BenchStack): Promise<void> {
  const deadline = Date.now() + 120_000;
  let quietSince = Date.now();
  while (Date.now() < deadline && Date.now() - quietSince < 1_000) {
    const { rows } = await stack.db.raw(`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and state in ('active', 'idle in transaction') and query not ilike '%pg_stat_activity%'`);
    if (rows[0].n > 2) quietSince = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function phase(stack: BenchStack, name: string, run: () => Promise<{ samples: Sample[] }>): Promise<Row> {
  await drain(stack);
  let samples: Sample[] = [];
  const [{ n }] = await stack.db('titles').count({ n: '*' });
  say(`${name} (${n} titles in the database)`);
  const meter = await stackComponents(stack);
  const sampler = sampleSessions(stack.db);
  const [cpuBefore, selfBefore, loadBefore, started] = [readCpu(meter), process.cpuUsage(), os.loadavg()[0], performance.now()];
  await run().then((r) => { samples = r.samples; });
  // Until the last answer: an open loop outlives its schedule when the server falls behind.
  const seconds = (performance.now() - started) / 1000;
  const self = process.cpuUsage(selfBefore);
  const cpu = { ...cpuBetween(cpuBefore, readCpu(meter)), load: (self.user + self.system) / 1000 };
  const summary = summarise(samples, seconds);
  const row: Row = {
    phase: name, titlesBefore: Number(n), summary, sessions: await sampler.stop(),
    cpuPerCreation: Object.fromEntries(Object.entries(cpu).map(([k, ms]) => [k, ms / Math.max(summary.created, 1)])),
    busyCores: Object.values(cpu).reduce((a, b) => a + b, 0) / (seconds * 1000),
    load: `${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`,
  };
  say(`  ${row.summary.created} created, ${row.summary.failed} failed, ${f1(row.summary.perSecond)}/s, p50 ${f1(row.summary.p50)} ms, p99 ${f1(row.summary.p99)} ms`);
  return row;
}

const timedLoop = (send: () => Promise<number>, clients: number) => async () => ({ samples: await closedLoop(send, clients, SECONDS) });

function report(rows: Row[]): string {
  const cpu = os.cpus();
  const sessions = (s: Record<string, number>) => Object.entries(s).filter(([, v]) => v >= 0.05).map(([k, v]) => `${k} ${v.toFixed(1)}`).join('; ');
  return [
    `Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.version}.`,
    `Stack: embedded Postgres (fsync off) or DATABASE_URL, Temporal dev server, api + ${WORKER ? 'worker + ' : ''}sandbox as separate processes, load generator in a fourth; all on this machine.`,
    `Operations born ${APPROVED ? 'APPROVED_DIRECT' : 'WAITING_APPROVAL'}; ${WORKER ? (APPROVED ? 'the worker runs each workflow and dispatches each contract to the sandbox e-sign' : 'the worker runs each workflow up to the approval wait') : 'no worker: workflows are started, never run'}; ${SECONDS} s per phase; 10 receivables of 1,000.00 per operation, payers drawn from ${PAYERS} per originator.`,
    '',
    '| phase | titles before | created | failed | creations/s | min ms | p50 ms | p90 ms | p99 ms | max ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(({ phase: name, titlesBefore, summary: s }) => `| ${name} | ${titlesBefore} | ${s.created} | ${s.failed}${s.failed ? ` (${Object.entries(s.failures).map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''} | ${f1(s.perSecond)} | ${f1(s.min)} | ${f1(s.p50)} | ${f1(s.p90)} | ${f1(s.p99)} | ${f1(s.max)} |`),
    '',
    `CPU ms per created operation, by process tree (/proc), and cores kept busy by the stack (the machine has ${cpu.length}):`,
    '',
    `| phase | ${Object.keys(rows[0]?.cpuPerCreation ?? {}).join(' | ')} | total | cores busy | machine load avg |`,
    `|---|${Object.keys(rows[0]?.cpuPerCreation ?? {}).map(() => '---|').join('')}---|---|---|`,
    ...rows.map((r) => `| ${r.phase} | ${Object.values(r.cpuPerCreation).map(f1).join(' | ')} | ${f1(Object.values(r.cpuPerCreation).reduce((a, b) => a + b, 0))} | ${r.busyCores.toFixed(2)} | ${r.load} |`),
    '',
    'Mean database sessions per state while each phase ran (pg_stat_activity, every 50 ms):',
    '',
    ...rows.map((r) => `- ${r.phase}: ${sessions(r.sessions)}`),
  ].join('\n');
}

async function main(): Promise<void> {
  const stack = await startStack({ worker: WORKER, apiEnv: PROFILE_DIR ? { NODE_OPTIONS: `--import ${pathToFileURL(path.join(__dirname, '..', 'support', 'cpu-profile.mjs')).href}`, BENCH_PROFILE_DIR: path.resolve(PROFILE_DIR) } : {} });
  try {
    const originators = await seedOriginators(stack.db, stack.apiUrl, Math.max(ORIGINATORS, 1), APPROVED, PAYERS);
    const one = (): Promise<number> => createOne(stack.apiUrl, originators[0]);
    let next = 0;
    const spread = (): Promise<number> => createOne(stack.apiUrl, originators[(next += 1) % originators.length] as Originator);

    say('warm-up, 5 s');
    await closedLoop(one, 4, 5);
    const rows: Row[] = [];
    if (RATE > 0) rows.push(await phase(stack, `fixed ${RATE}/s, 1 originator`, async () => ({ samples: await openLoop(one, RATE, SECONDS) })));
    for (const clients of CLIENTS) rows.push(await phase(stack, `${clients} clients, 1 originator`, timedLoop(one, clients)));
    const most = Math.max(...CLIENTS);
    if (ORIGINATORS > 1) rows.push(await phase(stack, `${most} clients, ${ORIGINATORS} originators`, timedLoop(spread, most)));
    process.stdout.write(`${report(rows)}\n`);
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
