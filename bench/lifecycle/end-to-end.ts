/**
 * End-to-end operations per second, from `POST /v1/operations/direct` to `PAID`, with zero-delay
 * sandbox providers and embedded signing: creation, automatic contract dispatch, signing through
 * the sandbox signing page over HTTP (as a person would), PIX order, settlement callback,
 * reconciliation. Arrivals at a steady rate, spread over several originators as real traffic is.
 * Each operation's latency runs from its creation request to the moment its read model turned
 * PAID (the row's updated_at), so the polling (to sign and to notice PAID) does not blur it.
 *
 *   npx tsx bench/lifecycle/end-to-end.ts [operations per second, default 25] [seconds, default 20] [originators, default 8] [receivables, default 1]
 *
 * The api, the worker and the sandbox run as separate processes (bench/creation/stack.ts), beside
 * Postgres and the Temporal dev server (with its real continue-as-new threshold, not the tests'),
 * on this 2-core machine. Besides latency it reports the CPU time each process tree spent per
 * operation (/proc: robust to other load on the machine), the Temporal work of one operation read
 * from its history (workflows, workflow tasks, events, activities…), where the wall-clock time of
 * an operation went (created → signable → signed → PAID), and the Temporal floor measured on the
 * same server in the same run: the server's CPU for the least workflow (start, one workflow task
 * holding a local activity, completed), and the operation's Temporal CPU as a multiple of it.
 * Every originator registers at the sandbox escriturador, so each NF-e is checked at SEFAZ and
 * its duplicata's acquisition registered before the PIX, and the ledger posts; `backing` counts
 * what they left for the PAID operations (outside the measured window).
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { ApiClient } from '../../test/support/http';
import { cpuBetween, readCpu, Roots } from '../creation/cpu';
import { stackComponents, startStack } from '../creation/stack';
import { seedOriginators } from '../creation/workload';
import { summary } from '../support/summary';
import { NativeConnection, Worker } from '@temporalio/worker';
import { operationWorkflowId } from '../../domain/workflow-ids';
import { addCost, connectClient, emptyCost, historyCost, temporalEventName } from './temporal-cost';
import { backingOf } from './backing';
import { Timeline, toPaid } from './to-paid';

const RATE = Number(process.argv[2] ?? 25);
const SECONDS = Number(process.argv[3] ?? 20);
const ORIGINATORS = Number(process.argv[4] ?? 8);
/** Each receivable becomes a title, tracked by the operation's own workflow once it is PAID. */
const RECEIVABLES = Number(process.argv[5] ?? 1);
/** Workflows of the floor shape run on the same Temporal server after the operations, to compare with. */
const FLOOR_WORKFLOWS = 200;
/** BENCH_POLL_SIGNERS=1: the bench polls the signers route instead of the row (to-paid.ts). */
const POLL_SIGNERS = process.env.BENCH_POLL_SIGNERS === '1';
/**
 * After the last PAID the workflows still read their titles and upsert their search attributes:
 * the CPU window ends once the stack is quiet (under QUIET_MS_PER_S of CPU in a second, idle
 * pollers included).
 */
const QUIET_MS_PER_S = 60;
const QUIET_GIVE_UP_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (line: string) => process.stderr.write(`[bench:lifecycle] ${line}\n`);

/** Waits until the stack (all but the bench) has spent less than QUIET_MS_PER_S of CPU over a second. */
async function quiet(meter: Record<string, Roots>): Promise<void> {
  const deadline = Date.now() + QUIET_GIVE_UP_MS;
  let before = readCpu(meter);
  while (Date.now() < deadline) {
    await sleep(1_000);
    const now = readCpu(meter);
    const spent = Object.values(cpuBetween(before, now)).reduce((a, b) => a + b, 0);
    if (spent < QUIET_MS_PER_S) return;
    before = now;
  }
}

async function main(): Promise<void> {
  // BENCH_PROFILE_DIR: the api and the worker (every thread) write V8 CPU profiles there (bench/support/cpu-profile.mjs).
  const profile: Record<string, string> = process.env.BENCH_PROFILE_DIR
    ? { NODE_OPTIONS: `--import ${pathToFileURL(path.join(__dirname, '..', 'support', 'cpu-profile.mjs')).href}`, BENCH_PROFILE_DIR: path.resolve(process.env.BENCH_PROFILE_DIR),
      // a window, not at exit: the worker's workflow thread has no exit event of its own
      BENCH_PROFILE_SECONDS: process.env.BENCH_PROFILE_SECONDS ?? '60' }
    : {};
  const profiled = (name: string) => (profile.BENCH_PROFILE_DIR ? { ...profile, BENCH_PROFILE_DIR: path.join(profile.BENCH_PROFILE_DIR, name) } : {});
  const stack = await startStack({ worker: true, apiEnv: profiled('api'), workerEnv: profiled('worker'), sandboxEnv: { SANDBOX_SETTLEMENT_DELAY_MS: '0' } });
  const client = new ApiClient(stack.apiUrl);
  const originators = await seedOriginators(stack.db, stack.apiUrl, ORIGINATORS, true, 20, { registered: true });
  const meter = await stackComponents(stack);
  const latencies: number[] = [];
  const timelines: Timeline[] = [];
  const paidIds: string[] = [];
  const failures: string[] = [];

  async function one(): Promise<void> {
    const outcome = await toPaid(stack.db, client, originators[Math.floor(Math.random() * originators.length)], RECEIVABLES, POLL_SIGNERS);
    if ('failure' in outcome) { failures.push(outcome.failure); return; }
    latencies.push(outcome.timeline.paid);
    timelines.push(outcome.timeline);
    paidIds.push(outcome.id);
  }

  // What the stack spends doing nothing (pollers, relays, the dev server's own timers), per second.
  const idleFrom = readCpu(meter);
  await sleep(5_000);
  const idle = Object.fromEntries(Object.entries(cpuBetween(idleFrom, readCpu(meter))).map(([k, ms]) => [k, Math.round(ms / 5)]));

  const runs: Promise<void>[] = [];
  const [cpuBefore, selfBefore, loadBefore] = [readCpu(meter), process.cpuUsage(), os.loadavg()[0]];
  const begin = performance.now();
  for (let i = 0; i < RATE * SECONDS; i += 1) {
    const wait = begin + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    runs.push(one().catch((err) => { failures.push(String(err)); }));
  }
  await Promise.all(runs);
  const elapsed = (performance.now() - begin) / 1000;
  await quiet(meter);
  const self = process.cpuUsage(selfBefore);
  const cpu: Record<string, number> = { ...cpuBetween(cpuBefore, readCpu(meter)), bench: (self.user + self.system) / 1000 };
  const windowSeconds = (performance.now() - begin) / 1000;
  const s = summary(latencies);
  const perOp = Object.fromEntries(Object.entries(cpu).map(([k, ms]) => [k, Math.round(ms / Math.max(s.count, 1))]));
  const totalPerOp = Object.values(cpu).reduce((a, b) => a + b, 0) / Math.max(s.count, 1);

  // The Temporal work of one operation, read from a few samples' histories (every run).
  const temporal = await connectClient(stack.temporalAddress);
  const samples = paidIds.slice(Math.floor(paidIds.length / 2), Math.floor(paidIds.length / 2) + 3);
  const operationCost = emptyCost();
  for (const id of samples) addCost(operationCost, await historyCost(temporal, operationWorkflowId(id)));
  const floor = await temporalFloor(stack.temporalAddress, meter.temporal);
  const backing = await backingOf(stack.db, paidIds);
  if (process.env.BENCH_HISTORY && samples[0]) {
    // One operation's history, event by event with its time since the start, to see where it waited.
    const { writeFileSync } = await import('node:fs');
    const history = await temporal.workflow.getHandle(operationWorkflowId(samples[0])).fetchHistory();
    const t0 = Number(history.events?.[0]?.eventTime?.seconds ?? 0) * 1000 + Math.round((history.events?.[0]?.eventTime?.nanos ?? 0) / 1e6);
    writeFileSync(process.env.BENCH_HISTORY, (history.events ?? []).map((e) => {
      const at = Number(e.eventTime?.seconds ?? 0) * 1000 + Math.round((e.eventTime?.nanos ?? 0) / 1e6) - t0;
      const detail = e.activityTaskScheduledEventAttributes?.activityType?.name ?? e.markerRecordedEventAttributes?.markerName ?? e.workflowExecutionSignaledEventAttributes?.signalName ?? '';
      return `${String(at).padStart(7)} ms  ${temporalEventName(e.eventType)} ${detail}`;
    }).join('\n'));
  }
  await temporal.connection.close();
  const perSample = (cost: typeof operationCost) => Object.fromEntries(Object.entries(cost).map(([k, v]) => [k, Number((v / Math.max(samples.length, 1)).toFixed(1))]));
  const median = (pick: (t: Timeline) => number) => Math.round(summary(timelines.map(pick)).p50);

  process.stdout.write(`${JSON.stringify({
    offered_per_second: RATE, seconds: SECONDS, originators: ORIGINATORS, receivables: RECEIVABLES, completed: s.count, failures: failures.length,
    failure_samples: failures.slice(0, 5), achieved_per_second: Number((s.count / elapsed).toFixed(1)),
    p50_ms: Math.round(s.p50), p99_ms: Math.round(s.p99), max_ms: Math.round(s.max),
    median_timeline_ms: {
      created: median((t) => t.created), signable: median((t) => t.signable), signed: median((t) => t.signed), paid: median((t) => t.paid),
      signers_route_reads_per_op: Number((timelines.reduce((a, t) => a + t.signerReads, 0) / Math.max(timelines.length, 1)).toFixed(1)),
    },
    cpu_ms_per_op: { ...perOp, total: Math.round(totalPerOp) },
    idle_cpu_ms_per_second: idle,
    window_seconds: Number(windowSeconds.toFixed(1)),
    cores_busy: Number((Object.values(cpu).reduce((a, b) => a + b, 0) / (windowSeconds * 1000)).toFixed(2)),
    load_average: `${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`,
    temporal_per_op: { workflows: 1 + perSample(operationCost).children, ...perSample(operationCost) },
    temporal_floor: {
      server_cpu_ms_per_workflow: Number(floor.toFixed(2)), shape: 'start → one workflow task with a local activity → completed',
      operation_to_floor_ratio: Number((perOp.temporal / floor).toFixed(1)),
    },
    backing,
  }, null, 2)}\n`);
  if (process.env.BENCH_TIMELINES) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(process.env.BENCH_TIMELINES, JSON.stringify(timelines));
  }
  say(`| ${RATE} | ${RECEIVABLES} | ${s.count} of ${RATE * SECONDS} | ${(s.count / elapsed).toFixed(1)} | ${Math.round(s.p50)} | ${Math.round(s.p99)} | ${Object.values(perOp).join(' · ')} · ${Math.round(totalPerOp)} (${Object.keys(perOp).join(' · ')} · total) |`);
  await stack.stop();
}

/**
 * The Temporal server's CPU for the least useful workflow, on the same server right after the
 * operations: FLOOR_WORKFLOWS of floor-workflows.ts's `oneLocalActivity`, run to completion by
 * 16 callers with a worker in this process.
 */
async function temporalFloor(address: string, server: Roots): Promise<number> {
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection, taskQueue: 'floor', workflowsPath: require.resolve('./floor-workflows'), activities: { noop: async () => 'done' },
  });
  const running = worker.run();
  const client = await connectClient(address);
  const before = readCpu({ server });
  let next = 0;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < FLOOR_WORKFLOWS) {
      next += 1;
      await client.workflow.execute('oneLocalActivity', { taskQueue: 'floor', workflowId: `floor-${next}-${randomUUID()}` });
    }
  }));
  const cpu = cpuBetween(before, readCpu({ server }));
  worker.shutdown();
  await running;
  await client.connection.close();
  await connection.close();
  return cpu.server / FLOOR_WORKFLOWS;
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
