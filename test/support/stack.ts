import { loadConfig, Config } from '../../api/config';
import { startApi, RunningApi } from '../../api/server';
import { createDb, Db, migrate } from '../../db/connection';
import { seedDev } from '../../db/seeds/dev-seed';
import { startWorker, RunningWorker } from '../../worker/main';

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
    ...overrides,
  });
}

let db: Db | undefined;
let api: Promise<RunningApi> | undefined;
let worker: Promise<RunningWorker> | undefined;
const extraApis: RunningApi[] = [];

export async function prepareDatabase(): Promise<Db> {
  if (!db) {
    db = createDb(testConfig().databaseUrl, 10);
    await migrate(db);
    await seedDev(db);
  }
  return db;
}

export function testDb(): Db {
  if (!db) throw new Error('database not prepared');
  return db;
}

export function sharedApi(): Promise<RunningApi> {
  api ??= startApi(testConfig());
  return api;
}

/** A second, separate api process-equivalent with its own pools and key ring. */
export async function anotherApi(overrides: Record<string, string> = {}): Promise<RunningApi> {
  const started = await startApi(testConfig(overrides));
  extraApis.push(started);
  return started;
}

export function sharedWorker(): Promise<RunningWorker> {
  worker ??= startWorker(testConfig());
  return worker;
}

export async function stopAll(): Promise<void> {
  for (const extra of extraApis.splice(0)) await extra.close();
  if (worker) await (await worker).stop();
  if (api) await (await api).close();
  if (db) await db.destroy();
}
