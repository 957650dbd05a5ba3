import path from 'node:path';
import { loadConfig, Config } from '../../platform/config/config';
import { createDb, Db, migrate } from '../../db/connection';
import { seedDev } from '../../db/seeds/dev-seed';
import { benchSecrets } from './secrets';

export interface BenchInfra {
  databaseUrl: string;
  temporalAddress: string;
  db: Db;
  config(overrides?: Record<string, string>): Config;
  stop(): Promise<void>;
}

/**
 * Postgres and Temporal for an in-process benchmark, started like the tests start them
 * (scripts/lib/infra.mjs): the ones named by DATABASE_URL / TEMPORAL_ADDRESS, or local ones.
 * A fresh, migrated, seeded database.
 */
export async function startBenchInfra(name: string): Promise<BenchInfra> {
  const infra = await import(path.join(__dirname, '..', '..', 'scripts', 'lib', 'infra.mjs'));
  const stack = await infra.startInfra({ purpose: 'bench' });
  const databaseUrl: string = await infra.createDatabase(stack.serverUrl, `bench_${name}`, { recreate: true });
  const db = createDb(databaseUrl, 10);
  await migrate(db);
  await seedDev(db);
  return {
    databaseUrl,
    temporalAddress: stack.temporalAddress,
    db,
    config: (overrides = {}) => loadConfig({
      ...process.env, ...benchSecrets(), SERVICE_ENV: 'dev', LOG_LEVEL: 'error', PORT: '0', RATE_LIMIT_ENABLED: 'false',
      DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: stack.temporalAddress, ...overrides,
    }),
    async stop() {
      await db.destroy();
      await stack.stop();
    },
  };
}
