/**
 * The fixed cost of a request: bare Express 5 echoing the body against the api's hot routes,
 * measured in one run on the same machine within about a minute.
 *
 *   npm run bench:http -- [--seconds 8] [--warmup 2] [--connections 10] [--only TEXT] [--baseline DIR | --traced [--rounds N]] [--profile-api DIR]
 *
 * Scenarios, each a closed loop of `--connections` keep-alive connections (autocannon) for
 * `--seconds` after `--warmup` seconds not counted:
 * - bare Express 5 echoing the 10-receivable simulation body (the yardstick);
 * - `POST /v1/simulate` with 1, 10 and 100 receivables;
 * - `GET /v1/operations/{id}` and `GET /v1/operations?limit=50` (50 operations of 10 receivables).
 * For each: requests/s, p50/p99 latency, CPU ms per request of the api process and of Postgres
 * (from /proc, which a busy machine does not distort the way it does throughput), and the ratio of
 * requests/s to bare Express. Rate limits are off (RATE_LIMIT_ENABLED=false), response validation
 * as configured by default. The api and bare Express are separate processes; Postgres and the
 * Temporal dev server come from scripts/lib/infra.mjs (DATABASE_URL / TEMPORAL_ADDRESS or local
 * ones); no worker runs, so the operations stay as created. Load averages are printed before and
 * after: on a shared machine read the CPU columns first.
 * --only TEXT: only the scenarios whose name contains TEXT, besides bare Express (for profiling one route).
 * --baseline DIR: a second api run from another checkout of the code (e.g. `git archive main | tar -x -C DIR`, with
 * DIR/node_modules linked to ours), on the same database; each api scenario runs against it right before ours,
 * so a before/after comparison shares the machine's conditions.
 * --rounds N: with --baseline, each pair is measured in N alternating slices of SECONDS / N (p50 and p99 are then the
 * median of the slices'), so a neighbour's load falls on the baseline and ours alike.
 * --traced: the instrumentation's cost. A second api of this checkout runs with tracing on
 * (OTEL_EXPORTER_OTLP_ENDPOINT at a local receiver that takes every export and discards it), and
 * each api scenario runs against it right after the untraced one, as with --baseline (--rounds too).
 * --profile-api DIR: the api (and the traced api, each in its own file) writes a V8 CPU profile to DIR on exit
 * (bench/lifecycle/profile-summary.ts reads it).
 */
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { businessDate } from '../../domain/pricing';
import { startChild } from '../../test/support/child-process';
import { byPid, cpuBetween, readCpu, Roots } from '../creation/cpu';
import { startStack, stackComponents } from '../creation/stack';
import { createOne, seedOriginators } from '../creation/workload';
import { pricingBody } from '../support/pricing-body';
import { option } from '../support/options';
import { apiProfileEnv } from '../support/profile-env';

const SECONDS = Number(option('seconds', '8'));
const WARMUP = Number(option('warmup', '2'));
const CONNECTIONS = Number(option('connections', '10'));
const PROFILE_DIR = option('profile-api', '');
const ONLY = option('only', '');
const BASELINE = option('baseline', '');
const ROUNDS = Math.max(1, Number(option('rounds', '1')));
const TRACED = process.argv.includes('--traced');
const OPERATIONS = 50;

const say = (line: string) => process.stderr.write(`[bench:http] ${line}\n`);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

interface Scenario { name: string; url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; cpu: Record<string, Roots> }
interface Result { name: string; rps: number; p50: number; p99: number; errors: number; cpuMsPerRequest: Record<string, number> }

function cannon(scenario: Scenario, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: scenario.url, method: scenario.method, headers: scenario.headers, body: scenario.body,
    connections: CONNECTIONS, duration: seconds,
  });
}

interface Tally { answered: number; wrong: number; cpuMs: Record<string, number>; p50s: number[]; p99s: number[] }

async function slice(scenario: Scenario, seconds: number, tally: Tally): Promise<void> {
  const before = readCpu(scenario.cpu);
  const result = await cannon(scenario, seconds);
  const cpu = cpuBetween(before, readCpu(scenario.cpu));
  tally.answered += result['2xx'];
  tally.wrong += result.non2xx + result.errors + result.timeouts;
  for (const [name, ms] of Object.entries(cpu)) tally.cpuMs[name] = (tally.cpuMs[name] ?? 0) + ms;
  tally.p50s.push(result.latency.p50);
  tally.p99s.push(result.latency.p99);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function resultOf(scenario: Scenario, tally: Tally): Result {
  if (tally.answered === 0) throw new Error(`${scenario.name}: no 2xx answer (${tally.wrong} others)`);
  return {
    name: scenario.name,
    rps: tally.answered / SECONDS,
    p50: median(tally.p50s),
    p99: median(tally.p99s),
    errors: tally.wrong,
    cpuMsPerRequest: Object.fromEntries(Object.entries(tally.cpuMs).map(([name, ms]) => [name, ms / tally.answered])),
  };
}

/**
 * The scenarios of a group (one alone, or a baseline and ours) measured in turns: with --rounds N
 * each runs N slices of SECONDS / N, alternating, so a neighbour's burst of load falls on both alike.
 */
async function measure(group: Scenario[]): Promise<Result[]> {
  if (WARMUP > 0) for (const scenario of group) await cannon(scenario, WARMUP);
  const rounds = group.length > 1 ? ROUNDS : 1;
  const tallies: Tally[] = group.map(() => ({ answered: 0, wrong: 0, cpuMs: {}, p50s: [], p99s: [] }));
  for (let round = 0; round < rounds; round += 1) {
    for (const [at, scenario] of group.entries()) await slice(scenario, SECONDS / rounds, tallies[at]);
  }
  return group.map((scenario, at) => resultOf(scenario, tallies[at]));
}

/** An OTLP/HTTP endpoint that answers every export at once and keeps nothing: the exporter's cost is the api's, not a collector's. */
async function discardingOtlpReceiver(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function main(): Promise<void> {
  if (TRACED && BASELINE) throw new Error('--traced and --baseline each bring a second api: choose one');
  const stack = await startStack({ worker: false, apiEnv: { RATE_LIMIT_ENABLED: 'false', ...apiProfileEnv(PROFILE_DIR) } });
  const bare = await startChild('bench/http/bare-express.ts', {}, /bare express listening on (http:\/\/[\d.:]+)/);
  const receiver = TRACED ? await discardingOtlpReceiver() : null;
  const baseline = BASELINE
    ? await startChild(path.resolve(BASELINE, 'api', 'server.ts'), { ...stack.apiEnv, NODE_OPTIONS: '' }, /api listening on (http:\/\/[\d.:]+)/)
    : null;
  const traced = receiver
    ? await startChild('api/server.ts', { ...stack.apiEnv, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, /api listening on (http:\/\/[\d.:]+)/)
    : null;
  const second = baseline ?? traced;
  const secondLabel = baseline ? 'baseline' : 'traced';
  try {
    const [originator] = await seedOriginators(stack.db, stack.apiUrl, 1, false, 20);
    for (let i = 0; i < OPERATIONS; i += 1) {
      const status = await createOne(stack.apiUrl, originator);
      if (status !== 201) throw new Error(`creating operation ${i + 1}: ${status}`);
    }
    const [{ id: operationId }] = await stack.db('operations').select('id').limit(1);
    const components = await stackComponents(stack);
    const api = { api: components.api, postgres: components.postgres };
    const auth = { Authorization: `Bearer ${originator.token}` };
    const json = { 'Content-Type': 'application/json' };
    const today = businessDate(new Date());
    const simulate = (size: number): Scenario => ({
      name: `POST /v1/simulate, ${size} receivable${size === 1 ? '' : 's'}`, url: `${stack.apiUrl}/v1/simulate`, method: 'POST',
      headers: { ...auth, ...json }, body: JSON.stringify(pricingBody(size, today)), cpu: api,
    });
    const all: Scenario[] = [
      { name: 'bare Express 5, echo of the 10-receivable body', url: `${bare.match[1]}/echo`, method: 'POST', headers: json, body: JSON.stringify(pricingBody(10, today)), cpu: { api: byPid(bare.process.pid!), postgres: components.postgres } },
      simulate(1),
      simulate(10),
      simulate(100),
      { name: 'GET /v1/operations/{id}', url: `${stack.apiUrl}/v1/operations/${operationId}`, method: 'GET', headers: auth, cpu: api },
      { name: `GET /v1/operations?limit=${OPERATIONS}`, url: `${stack.apiUrl}/v1/operations?limit=${OPERATIONS}`, method: 'GET', headers: auth, cpu: api },
    ];
    const chosen = all.filter((scenario, i) => i === 0 || scenario.name.includes(ONLY));
    const secondCpu = second ? { api: byPid(second.process.pid!), postgres: components.postgres } : null;
    const other = (scenario: Scenario): Scenario => ({ ...scenario, name: `${scenario.name} (${secondLabel})`, url: scenario.url.replace(stack.apiUrl, second!.match[1]), cpu: secondCpu! });
    // A baseline runs before ours; the traced api after ours, so each pair reads "before, after".
    const groups: Scenario[][] = !second ? chosen.map((scenario) => [scenario]) : chosen.map((scenario, i) => (i === 0 ? [scenario] : baseline ? [other(scenario), scenario] : [scenario, other(scenario)]));
    const startLoad = load();
    say(`load average before: ${startLoad}; ${groups.flat().length} scenarios of ${WARMUP} + ${SECONDS} s${ROUNDS > 1 && second ? ` (in ${ROUNDS} alternating slices)` : ''}, ${CONNECTIONS} connections`);
    const started = Date.now();
    const results: Result[] = [];
    for (const group of groups) {
      for (const result of await measure(group)) {
        results.push(result);
        say(`${result.name}: ${result.rps.toFixed(0)}/s`);
      }
    }
    const endLoad = load();
    const base = results[0].rps;
    const f1 = (n: number) => n.toFixed(1);
    // Three places: a tenth less api CPU per request is 0.03-0.04 ms here.
    const f3 = (n: number) => n.toFixed(3);
    const lines = [
      `bench/http: ${CONNECTIONS} connections, ${SECONDS} s per scenario after ${WARMUP} s of warm-up, rate limits off, ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
      `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}; load average (1, 5, 15 min) before ${startLoad}, after ${endLoad}`,
      '',
      '| scenario | requests/s | p50 ms | p99 ms | CPU ms / request (api · postgres) | ratio to bare Express | non-2xx or errors |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...results.map((r) => `| ${r.name} | ${f1(r.rps)} | ${r.p50} | ${r.p99} | ${f3(r.cpuMsPerRequest.api)} · ${f3(r.cpuMsPerRequest.postgres)} | ${(100 * r.rps / base).toFixed(1)} % | ${r.errors} |`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await bare.kill('SIGTERM');
    await baseline?.kill('SIGTERM');
    await traced?.kill('SIGTERM');
    receiver?.close();
    await stack.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
