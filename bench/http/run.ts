/**
 * The fixed cost of a request: bare Express 5 echoing the body against the api's hot routes,
 * measured in one run on the same machine within about a minute.
 *
 *   npm run bench:http -- [--seconds 8] [--warmup 2] [--connections 10] [--only TEXT] [--baseline DIR] [--profile-api DIR]
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
 * --profile-api DIR: the api writes a V8 CPU profile to DIR on exit (bench/lifecycle/profile-summary.ts reads it).
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { businessDate } from '../../domain/pricing';
import { startChild } from '../../test/support/child-process';
import { byPid, cpuBetween, readCpu, Roots } from '../creation/cpu';
import { startStack, stackComponents } from '../creation/stack';
import { createOne, seedOriginators } from '../creation/workload';
import { pricingBody } from '../support/pricing-body';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

const SECONDS = Number(option('seconds', '8'));
const WARMUP = Number(option('warmup', '2'));
const CONNECTIONS = Number(option('connections', '10'));
const PROFILE_DIR = option('profile-api', '');
const ONLY = option('only', '');
const BASELINE = option('baseline', '');
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

async function measure(scenario: Scenario): Promise<Result> {
  if (WARMUP > 0) await cannon(scenario, WARMUP);
  const before = readCpu(scenario.cpu);
  const result = await cannon(scenario, SECONDS);
  const cpu = cpuBetween(before, readCpu(scenario.cpu));
  const answered = result['2xx'];
  const wrong = result.non2xx + result.errors + result.timeouts;
  if (answered === 0) throw new Error(`${scenario.name}: no 2xx answer (${wrong} others)`);
  return {
    name: scenario.name,
    rps: answered / SECONDS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: wrong,
    cpuMsPerRequest: Object.fromEntries(Object.entries(cpu).map(([name, ms]) => [name, ms / answered])),
  };
}

async function main(): Promise<void> {
  const profile: Record<string, string> = PROFILE_DIR
    ? { NODE_OPTIONS: `--import ${pathToFileURL(path.join(__dirname, '..', 'support', 'cpu-profile.mjs')).href}`, BENCH_PROFILE_DIR: path.resolve(PROFILE_DIR) }
    : {};
  const stack = await startStack({ worker: false, apiEnv: { RATE_LIMIT_ENABLED: 'false', ...profile } });
  const bare = await startChild('bench/http/bare-express.ts', {}, /bare express listening on (http:\/\/[\d.:]+)/);
  const baseline = BASELINE
    ? await startChild(path.resolve(BASELINE, 'api', 'server.ts'), { ...stack.apiEnv, NODE_OPTIONS: '' }, /api listening on (http:\/\/[\d.:]+)/)
    : null;
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
    const baselineCpu = baseline ? { api: byPid(baseline.process.pid!), postgres: components.postgres } : null;
    const scenarios = !baseline || !baselineCpu ? chosen : chosen.flatMap((scenario, i) => (i === 0 ? [scenario] : [
      { ...scenario, name: `${scenario.name} (baseline)`, url: scenario.url.replace(stack.apiUrl, baseline.match[1]), cpu: baselineCpu },
      scenario,
    ]));
    const startLoad = load();
    say(`load average before: ${startLoad}; ${scenarios.length} scenarios of ${WARMUP} + ${SECONDS} s, ${CONNECTIONS} connections`);
    const started = Date.now();
    const results: Result[] = [];
    for (const scenario of scenarios) {
      results.push(await measure(scenario));
      say(`${scenario.name}: ${results.at(-1)!.rps.toFixed(0)}/s`);
    }
    const endLoad = load();
    const base = results[0].rps;
    const f1 = (n: number) => n.toFixed(1);
    const f2 = (n: number) => n.toFixed(2);
    const lines = [
      `bench/http: ${CONNECTIONS} connections, ${SECONDS} s per scenario after ${WARMUP} s of warm-up, rate limits off, ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
      `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}; load average (1, 5, 15 min) before ${startLoad}, after ${endLoad}`,
      '',
      '| scenario | requests/s | p50 ms | p99 ms | CPU ms / request (api · postgres) | ratio to bare Express | non-2xx or errors |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...results.map((r) => `| ${r.name} | ${f1(r.rps)} | ${r.p50} | ${r.p99} | ${f2(r.cpuMsPerRequest.api)} · ${f2(r.cpuMsPerRequest.postgres)} | ${(100 * r.rps / base).toFixed(1)} % | ${r.errors} |`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await bare.kill('SIGTERM');
    await baseline?.kill('SIGTERM');
    await stack.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
