import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../platform/logger';
import { loadConfig, Config } from '../../platform/config/config';
import { startApi, RunningApi } from '../../api/server';
import { createDb, Db, migrate } from '../../db/connection';
import { seedDev } from '../../db/seeds/dev-seed';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { startWorker, RunningWorker } from '../../worker/main';
import { startSandbox, RunningSandbox } from '../../sandbox/server';
import { SANDBOX_DEFAULTS, SandboxConfig } from '../../sandbox/config';
import { API_HOSTS, fixedResolver, webhookWorkerEnv, WORKER_HOSTS } from './webhooks';
import { clonesPerFile } from './file-database';

// Every test calls from 127.0.0.1 and rate-limit windows are shared in Postgres, so every api the
// suite starts, in this process or as a child process (which inherits the environment), gets
// budgets the whole suite cannot exhaust. Rate-limit tests set low ones (and their own X-Forwarded-For).
// Metrics listeners take a free port each: the suite starts several apis and workers, in this
// process and as children, and may run beside `npm run dev`.
Object.assign(process.env, {
  METRICS_PORT: '0',
  RATE_LIMIT_IP_RPM: '1000000', RATE_LIMIT_LOGIN_RPM: '1000000', RATE_LIMIT_AUTH_TOKEN_RPM: '1000000', RATE_LIMIT_TOKEN_RPM: '1000000',
  RATE_LIMIT_LOGIN_ACCOUNT_PER_HOUR: '1000000', RATE_LIMIT_LOGIN_ACCOUNT_CEILING_PER_HOUR: '1000000', RATE_LIMIT_HEALTH_RPM: '1000000',
});

/**
 * The system under test, started once per run and shared: the real api on an ephemeral port,
 * real Postgres (a fresh database per run) and, when a test asks for it, a real worker.
 */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...process.env,
    SERVICE_ENV: 'dev',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    OPENAPI_VALIDATE_RESPONSES: 'true',
    // The run's checkpoints are its database's: kept out of the dev stack's log in .data.
    AUDIT_CHECKPOINT_LOG: process.env.AUDIT_CHECKPOINT_LOG ?? join(tmpdir(), `audit-checkpoints-test-${process.pid}.jsonl`),
    ...overrides,
  });
}

let db: Db | undefined;
let api: Promise<Pick<RunningApi, 'url' | 'metricsUrl' | 'close'>> | undefined;
let worker: Promise<Pick<RunningWorker, 'metricsUrl' | 'stop'>> | undefined;
let sandbox: Promise<RunningSandbox> | undefined;
const extraApis: RunningApi[] = [];

export async function prepareDatabase(): Promise<Db> {
  if (!db) {
    db = createDb(testConfig().databaseUrl, 10, null, createLogger(testConfig().logLevel, 'test'));
    if (!clonesPerFile()) {
      await migrate(db);
      await seedDev(db, new CipherRing(testConfig().payloadKeys));
    }
  }
  return db;
}

export function testDb(): Db {
  if (!db) throw new Error('database not prepared');
  return db;
}

/** The sandbox signs its callbacks with the secrets the api under test verifies. */
export function sandboxCallbackSecrets(): SandboxConfig['callbackSecrets'] {
  const { esignSecret, pixSecret } = testConfig().callbacks;
  return { esign: esignSecret, pix: pixSecret };
}

/**
 * `npm run test:cluster -- --apps` runs tests against the cluster's own processes (two apis behind
 * one address, two workers, the sandbox), named by TEST_API_URL and TEST_SANDBOX_URL: the run then
 * starts none of its own, and the shared api, worker and sandbox below are those.
 */
const cluster = process.env.TEST_API_URL
  ? {
    apiUrl: process.env.TEST_API_URL, sandboxUrl: process.env.TEST_SANDBOX_URL ?? '',
    // One api process's and one worker's metrics listener (each process has its own).
    apiMetricsUrl: process.env.TEST_API_METRICS_URL ?? '', workerMetricsUrl: process.env.TEST_WORKER_METRICS_URL ?? '',
  }
  : null;
const leftRunning = async () => undefined;

/** The simulated e-sign and PIX providers; quick settlement and callback retries keep tests short. */
export function sharedSandbox(): Promise<RunningSandbox> {
  if (cluster) {
    const url = cluster.sandboxUrl;
    sandbox ??= Promise.resolve({ url, esignUrl: `${url}/esign`, pixUrl: `${url}/pix`, apiPixUrl: `${url}/api-pix/v2`, mailUrl: `${url}/mail`, sefazUrl: `${url}/sefaz`, escrituradorUrl: `${url}/escriturador`, close: leftRunning });
  }
  sandbox ??= startSandbox({
    port: 0, settlementDelayMs: 50, callbackRetryDelayMs: 100, logLevel: process.env.TEST_LOG_LEVEL ?? 'error', callbackSecrets: sandboxCallbackSecrets(),
    collection: { ...SANDBOX_DEFAULTS.collection, webhookSecret: testConfig().collection.callbackSecret },
    registrar: { ...SANDBOX_DEFAULTS.registrar, webhookSecret: testConfig().registrar.callbackSecret },
  });
  return sandbox;
}

/** The api and the worker under test reach the shared sandbox as their providers. */
export async function providerUrls(): Promise<Record<string, string>> {
  const providers = await sharedSandbox();
  return {
    ESIGN_URL: providers.esignUrl, PIX_URL: providers.pixUrl,
    PIX_COLLECTION_URL: providers.apiPixUrl, PIX_COLLECTION_TOKEN_URL: providers.apiPixUrl.replace(/\/v2$/, '/oauth/token'),
    MAIL_SANDBOX_URL: providers.mailUrl,
    SEFAZ_SANDBOX_URL: providers.sefazUrl,
    REGISTRAR_URL: providers.escrituradorUrl,
  };
}

export function sharedApi(): Promise<Pick<RunningApi, 'url' | 'metricsUrl' | 'close'>> {
  if (cluster) api ??= Promise.resolve({ url: cluster.apiUrl, metricsUrl: cluster.apiMetricsUrl, close: leftRunning });
  api ??= providerUrls().then((urls) => startApi(testConfig(urls), { resolveHost: fixedResolver(API_HOSTS) }));
  return api;
}

/** A second, separate api process-equivalent with its own pools and key ring. */
export async function anotherApi(overrides: Record<string, string> = {}, options: { now?: () => Date } = {}): Promise<RunningApi> {
  const started = await startApi(testConfig({ ...(await providerUrls()), ...overrides }), { resolveHost: fixedResolver(API_HOSTS), ...options });
  extraApis.push(started);
  return started;
}

/**
 * An api whose requests wait on Postgres for up to a minute (the default budget gives up on a lock
 * after 1.2 s): for a test that holds a row and sees requests queue behind it before letting them
 * go, which on a loaded machine can take longer than the default wait.
 */
export function patientApi(overrides: Record<string, string> = {}): Promise<RunningApi> {
  return anotherApi({ DB_FAIL_FAST_MS: '60000', ...overrides });
}

/** Closes one api of anotherApi's before the suite ends (one whose clock or settings must not outlive its test). */
export async function closeApi(running: RunningApi): Promise<void> {
  extraApis.splice(extraApis.indexOf(running), 1);
  await running.close();
}

/**
 * Provider callbacks reach the shared api, so the worker hands out its real address. `overrides`
 * (settings of the worker's own) apply to the worker this call starts, not to one already running:
 * a test that needs them stops the shared worker first (`stopSharedWorker`), and again at its end.
 */
export function sharedWorker(overrides: Record<string, string> = {}): Promise<Pick<RunningWorker, 'metricsUrl' | 'stop'>> {
  if (cluster) worker ??= Promise.resolve({ metricsUrl: cluster.workerMetricsUrl, stop: leftRunning });
  worker ??= Promise.all([providerUrls(), webhookWorkerEnv(), sharedApi()])
    .then(([urls, webhooks, running]) => startWorker(testConfig({ ...urls, ...webhooks, PUBLIC_URL: running.url, ...overrides }), { resolveHost: fixedResolver(WORKER_HOSTS) }));
  return worker;
}

/**
 * Stops the shared worker until the next `sharedWorker()` starts another: for a test whose own
 * worker process must be the only one relaying the outbox and dispatching events.
 */
export async function stopSharedWorker(): Promise<void> {
  if (cluster || !worker) return;
  const running = worker;
  worker = undefined;
  await (await running).stop();
}

/** Stops what the file (or the run) started; a parallel worker process starts afresh for its next file. */
export async function stopAll(): Promise<void> {
  const started = { worker, api, sandbox, db };
  worker = api = sandbox = db = undefined;
  for (const extra of extraApis.splice(0)) await extra.close();
  // A start that failed was reported by the test that awaited it: stopping skips it, and does not
  // fail every later file of the process with it.
  await (await started.worker?.catch(() => undefined))?.stop();
  await (await started.api?.catch(() => undefined))?.close();
  await (await started.sandbox?.catch(() => undefined))?.close();
  await started.db?.destroy();
}
