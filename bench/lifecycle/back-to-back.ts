/**
 * The end-to-end bench (creation → PAID) on a baseline checkout and on this one, back to back on
 * the same machine, and what this one adds per operation, process by process.
 *
 *   npm run bench:lifecycle -- --baseline DIR [--rate 2] [--seconds 25] [--originators 8] [--receivables 10] [--rounds 2]
 *
 * Each checkout runs its OWN bench/lifecycle/end-to-end.ts, from its own folder with its own
 * node_modules, so every run's bench matches the server code it drives (migrations, seeding and
 * stack included); the method (arrivals, the CPU window up to a quiet stack, /proc) is the same
 * file in both. Both get the same Temporal CLI (this checkout's, through TEMPORAL_CLI). The rounds
 * alternate the order (baseline first, then this checkout first, …) so a drift of the machine's
 * load falls on both alike. Without --baseline it runs this checkout alone.
 *
 * It prints each run's CPU ms per completed operation by process (user + system from /proc, whole
 * process trees), the mean of each side and the ratio, with the load average before and after,
 * and checks that every operation reached PAID on both and, on this checkout, that every title's
 * NF-e passed SEFAZ, its acquisition was registered and the ledger posted (exit 1 otherwise).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { option } from '../support/options';
import { runBench } from '../support/run-bench';
import type { Backing } from './backing';

const ROOT = path.resolve(__dirname, '..', '..');
const BASELINE = option('baseline', '');
const RATE = option('rate', '2');
const SECONDS = option('seconds', '25');
const ORIGINATORS = option('originators', '8');
const RECEIVABLES = option('receivables', '10');
const ROUNDS = Number(option('rounds', '2'));
/** Our stack's processes, whose sum the comparison judges. */
const OURS = ['api', 'worker', 'postgres', 'temporal'] as const;
/** Shown beside: the providers' stand-in (in production, someone else's CPU) and the load generator. */
const BESIDE = ['sandbox', 'bench'] as const;
const say = (line: string) => process.stderr.write(`[bench:lifecycle] ${line}\n`);

interface Checkout { name: string; dir: string }

interface Run {
  checkout: string;
  completed: number;
  failures: number;
  failure_samples: string[];
  p50_ms: number;
  p99_ms: number;
  load_average: string;
  cpu_ms_per_op: Record<string, number>;
  temporal_per_op: Record<string, number>;
  backing?: Backing;
}

/** The Temporal CLI both checkouts run, so the server is not what differs. */
async function temporalCli(): Promise<string> {
  const { ensureTemporal } = await import(path.join(ROOT, 'scripts', 'install-temporal.mjs'));
  return ensureTemporal();
}

function endToEnd(checkout: Checkout, env: NodeJS.ProcessEnv): Promise<Run> {
  const args = ['--import', 'tsx', 'bench/lifecycle/end-to-end.ts', RATE, SECONDS, ORIGINATORS, RECEIVABLES];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: checkout.dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${checkout.name}: end-to-end.ts exited ${code}`));
      try {
        resolve({ ...JSON.parse(output), checkout: checkout.name });
      } catch {
        reject(new Error(`${checkout.name}: end-to-end.ts printed no JSON:\n${output.slice(-2000)}`));
      }
    });
  });
}

const temporalWork = (run: Run) => ['workflowTasks', 'activities', 'localActivities', 'events'].map((name) => run.temporal_per_op[name] ?? 0).join(' · ');
const ours = (run: Run) => OURS.reduce((sum, name) => sum + (run.cpu_ms_per_op[name] ?? 0), 0);

function mean(runs: Run[], pick: (run: Run) => number): number {
  return runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
}

/** What a run must show to count: every operation PAID and, where the checkout has them, the checks and postings done. */
function problems(run: Run): string[] {
  const offered = Number(RATE) * Number(SECONDS);
  const found: string[] = [];
  if (run.completed !== offered || run.failures > 0) found.push(`${run.completed} of ${offered} PAID, ${run.failures} failures (${run.failure_samples.join('; ')})`);
  const backing = run.backing;
  if (!backing) return found;
  if (backing.titles_nfe_passed !== backing.titles) found.push(`${backing.titles_nfe_passed} of ${backing.titles} titles passed the NF-e check`);
  if (backing.titles_registered !== backing.titles) found.push(`${backing.titles_registered} of ${backing.titles} titles registered`);
  if (backing.ledger_posted.acquisition !== backing.titles) found.push(`${backing.ledger_posted.acquisition ?? 0} acquisitions posted for ${backing.titles} titles`);
  if (backing.ledger_posted.payout !== backing.operations) found.push(`${backing.ledger_posted.payout ?? 0} payouts posted for ${backing.operations} operations`);
  if (backing.ledger_not_posted > 0) found.push(`${backing.ledger_not_posted} ledger transactions pending or voided`);
  return found;
}

async function main(): Promise<void> {
  const checkouts: Checkout[] = [{ name: 'this checkout', dir: ROOT }];
  if (BASELINE) {
    const dir = path.resolve(BASELINE);
    if (!existsSync(path.join(dir, 'bench', 'lifecycle', 'end-to-end.ts')) || !existsSync(path.join(dir, 'node_modules', 'tsx'))) {
      throw new Error(`${dir} needs bench/lifecycle/end-to-end.ts and node_modules (bench/README.md says how to prepare a baseline)`);
    }
    checkouts.unshift({ name: `baseline ${path.basename(dir)}`, dir });
  }
  const env = { ...process.env, TEMPORAL_CLI: await temporalCli() };
  const loadBefore = os.loadavg();
  const runs: Run[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
    for (const checkout of order) {
      say(`round ${round + 1} of ${ROUNDS}: ${checkout.name} (${RATE}/s for ${SECONDS} s, ${RECEIVABLES} receivables)`);
      runs.push(await endToEnd(checkout, env));
    }
  }
  const loadAfter = os.loadavg();

  const columns = [...OURS, ...BESIDE];
  const cells = (values: (name: string) => string) => columns.map(values).join(' | ');
  const lines = [
    `bench:lifecycle: ${RATE} operations/s for ${SECONDS} s, ${RECEIVABLES} receivables each, ${ORIGINATORS} originators, ${ROUNDS} round(s); load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after (${os.cpus().length} cores)`,
    '',
    `| run | load avg | PAID | p50 · p99 ms | CPU ms / op: ${columns.join(' | ')} | ours (${OURS.join(' + ')}) | Temporal / op: workflow tasks · activities · local · events |`,
    `| --- | --- | --- | --- | ${columns.map(() => '---').join(' | ')} | --- | --- |`,
    ...runs.map((run) => `| ${run.checkout} | ${run.load_average} | ${run.completed} | ${run.p50_ms} · ${run.p99_ms} | ${cells((name) => String(run.cpu_ms_per_op[name] ?? 0))} | ${ours(run)} | ${temporalWork(run)} |`),
  ];
  if (BASELINE) {
    const [base, head] = checkouts.map((checkout) => runs.filter((run) => run.checkout === checkout.name));
    const ratio = (pick: (run: Run) => number) => {
      const before = mean(base, pick);
      return before > 0 ? `${(100 * (mean(head, pick) / before - 1)).toFixed(1)} %` : '—';
    };
    lines.push(
      `| **mean, baseline** | | | | ${cells((name) => mean(base, (run) => run.cpu_ms_per_op[name] ?? 0).toFixed(1))} | ${mean(base, ours).toFixed(1)} | |`,
      `| **mean, this checkout** | | | | ${cells((name) => mean(head, (run) => run.cpu_ms_per_op[name] ?? 0).toFixed(1))} | ${mean(head, ours).toFixed(1)} | |`,
      `| **added** | | | | ${cells((name) => ratio((run) => run.cpu_ms_per_op[name] ?? 0))} | **${ratio(ours)}** (target ≤ 10 %) | |`,
    );
  }
  const head = runs.filter((run) => run.checkout === 'this checkout' && run.backing);
  if (head.length > 0) {
    const backing = head[head.length - 1].backing!;
    lines.push('', `This checkout's last run, for its ${backing.operations} PAID operations: ${backing.titles} titles, ${backing.titles_nfe_passed} passed the NF-e check, ${backing.titles_registered} registered; ledger transactions posted ${JSON.stringify(backing.ledger_posted)}, ${backing.ledger_not_posted} pending or voided.`);
  }
  const found = runs.flatMap((run) => problems(run).map((problem) => `${run.checkout}: ${problem}`));
  lines.push('', found.length === 0 ? 'Every run complete.' : `NOT A VALID COMPARISON:\n${found.map((problem) => `- ${problem}`).join('\n')}`, '');
  process.stdout.write(lines.join('\n'));
  if (found.length > 0) process.exitCode = 1;
}

runBench(main);
