import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { createDb, migrate } from '../../db/connection';
import { startChild, Child } from '../../test/support/child-process';
import { byCommandLine, byPid, parentOf, Roots } from './cpu';
import { benchSecrets } from '../support/secrets';

const ROOT = path.resolve(__dirname, '..', '..');
const HIGH = String(1_000_000_000);

export interface BenchStack {
  apiUrl: string;
  /** A small pool of the bench's own, for seeding and for sampling pg_stat_activity. */
  db: Knex;
  /** Root pid of each process of ours (api, worker, sandbox), for the CPU meter. */
  pids: Record<string, number>;
  temporalAddress: string;
  /** What the api was started with (database, Temporal, providers, options), to start another like it. */
  apiEnv: Record<string, string>;
  stop(): Promise<void>;
}

interface Infra { serverUrl: string; temporalAddress: string; stop(): Promise<void> }

/**
 * Every provider the api and the worker reach, at the bench's own sandbox (its paths as
 * sandbox/server.ts mounts them). Left to their defaults, SEFAZ, the escriturador and the PSPs
 * would be asked at 127.0.0.1:8100, where nothing of this run listens (or a dev sandbox does),
 * and an NF-e operation would wait at the check before the PIX for ever.
 */
function providersAt(sandboxUrl: string): Record<string, string> {
  return {
    ESIGN_URL: `${sandboxUrl}/esign`,
    PIX_URL: `${sandboxUrl}/pix`,
    MAIL_SANDBOX_URL: `${sandboxUrl}/mail`,
    PIX_COLLECTION_URL: `${sandboxUrl}/api-pix/v2`,
    PIX_COLLECTION_TOKEN_URL: `${sandboxUrl}/api-pix/oauth/token`,
    SEFAZ_SANDBOX_URL: `${sandboxUrl}/sefaz`,
    REGISTRAR_URL: `${sandboxUrl}/escriturador`,
  };
}

/**
 * Postgres and Temporal from scripts/lib/infra.mjs (DATABASE_URL / TEMPORAL_ADDRESS when set,
 * otherwise a throw-away embedded Postgres and an in-memory Temporal dev server), a scratch
 * database, and the api, the worker and the sandbox providers as three separate processes, so
 * the load generator (this process) shares no event loop with them.
 */
export async function startStack(options: { worker: boolean; apiEnv?: Record<string, string>; workerEnv?: Record<string, string>; sandboxEnv?: Record<string, string> }): Promise<BenchStack> {
  const infraModule = await import(path.join(ROOT, 'scripts', 'lib', 'infra.mjs'));
  const infra: Infra = await infraModule.startInfra({ purpose: 'bench' });
  const database = `ra_bench_${process.pid}`;
  const databaseUrl: string = await infraModule.createDatabase(infra.serverUrl, database, { recreate: true });
  const db = createDb(databaseUrl, 4);
  await migrate(db);

  const children: Child[] = [];
  const pids: Record<string, number> = {};
  const base = {
    // Metrics listeners on free ports: a bench may run beside `npm run dev` and starts several processes.
    ...benchSecrets(), DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: infra.temporalAddress, SERVICE_ENV: 'dev', LOG_LEVEL: 'warn', PORT: '0', METRICS_PORT: '0',
    RATE_LIMIT_IP_RPM: HIGH, RATE_LIMIT_TOKEN_RPM: HIGH, RATE_LIMIT_AUTH_TOKEN_RPM: HIGH, RATE_LIMIT_LOGIN_RPM: HIGH,
  };
  // The sandbox keeps its state in a file of this run: without one it would share (and grow) the dev
  // sandbox's `.data/sandbox-state.json`, which it rewrites whole on every change.
  const sandboxState = path.join(ROOT, '.data', `bench-sandbox-state-${process.pid}.json`);
  const forgetSandboxState = () => rmSync(sandboxState, { force: true });
  try {
    const sandbox = await startChild('sandbox/main.ts', { ...base, SANDBOX_PORT: '0', SANDBOX_STATE_FILE: sandboxState, ...options.sandboxEnv }, /sandbox providers on (http\S+)/);
    children.push(sandbox);
    pids.sandbox = sandbox.process.pid!;
    const providers = providersAt(sandbox.match[1]);
    const apiEnv = { ...base, ...providers, ...options.apiEnv };
    const api = await startChild('api/server.ts', apiEnv, /api listening on (http:\/\/[\d.:]+)/);
    children.push(api);
    pids.api = api.process.pid!;
    if (options.worker) {
      const worker = await startChild('worker/main.ts', { ...base, ...providers, PUBLIC_URL: api.match[1], ...options.workerEnv }, /worker polling task queue/);
      children.push(worker);
      pids.worker = worker.process.pid!;
    }
    return {
      apiUrl: api.match[1],
      db,
      pids,
      temporalAddress: infra.temporalAddress,
      apiEnv,
      async stop() {
        for (const child of children.reverse()) await child.kill('SIGTERM');
        await db.destroy();
        await infraModule.dropDatabase(infra.serverUrl, database).catch(() => undefined);
        await infra.stop();
        forgetSandboxState();
      },
    };
  } catch (err) {
    for (const child of children) await child.kill();
    await db.destroy();
    await infra.stop();
    forgetSandboxState();
    throw err;
  }
}

/** The processes whose CPU time is read: ours, the Postgres server of the bench database, the Temporal server. */
export async function stackComponents(stack: BenchStack): Promise<Record<string, Roots>> {
  const { rows } = await stack.db.raw('select pg_backend_pid() as pid');
  const postmaster = parentOf(rows[0].pid);
  const port = stack.temporalAddress.split(':').pop();
  return {
    ...Object.fromEntries(Object.entries(stack.pids).map(([name, pid]) => [name, byPid(pid)])),
    postgres: postmaster ? byPid(postmaster) : () => [],
    temporal: byCommandLine(new RegExp(`temporal server start-dev .*--port ${port} `)),
  };
}
