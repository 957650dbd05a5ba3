import pg from 'pg';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureTemporal } from '../install-temporal.mjs';
import { freePort } from './ports.mjs';
import { startEmbeddedPostgres } from './postgres.mjs';
import { ONE_PARTITION, startTemporalDev, TEST_DYNAMIC_CONFIG } from './temporal.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function say(message) {
  process.stderr.write(`\x1b[36m[infra]\x1b[0m ${message}\n`);
}

export async function createDatabase(serverUrl, name, { recreate = false } = {}) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    if (recreate) await client.query(`drop database if exists "${name}" with (force)`);
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl, name) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

/**
 * Postgres and Temporal for a run: the ones named by DATABASE_URL / TEMPORAL_ADDRESS, or local
 * ones started here (embedded Postgres under .data/, the Temporal dev server from .tools/).
 */
export async function startInfra({ purpose, env = process.env, codecEndpoint = null }) {
  const stops = [];
  // A bench runs like a test (throwaway Postgres, in-memory Temporal, free ports) but with the
  // server's real continue-as-new threshold, so it measures what production would do.
  const test = purpose === 'test' || purpose === 'bench';
  let serverUrl = env.DATABASE_URL;
  if (!serverUrl) {
    const dataDir = path.join(ROOT, '.data', test ? `pg-test-${process.pid}` : 'pg');
    const port = test ? await freePort() : Number(env.DEV_PG_PORT ?? 5433);
    say(`starting embedded Postgres on port ${port} (data in ${path.relative(ROOT, dataDir)})`);
    const embedded = await startEmbeddedPostgres({ dataDir, port, fast: test, fresh: test });
    stops.push(async () => {
      await embedded.stop();
      if (test) rmSync(embedded.dataDir, { recursive: true, force: true });
    });
    serverUrl = embedded.url('postgres');
  }
  let temporalAddress = env.TEMPORAL_ADDRESS;
  let temporalWebUrl = env.TEMPORAL_WEB_URL ?? null;
  let temporalDeath = null;
  if (!temporalAddress) {
    const binary = ensureTemporal();
    const port = test ? await freePort() : Number(env.DEV_TEMPORAL_PORT ?? 7233);
    const uiPort = test ? await freePort() : Number(env.DEV_TEMPORAL_UI_PORT ?? 8233);
    say(`starting Temporal dev server on port ${port}${test ? ' (in memory)' : `, Temporal Web on ${uiPort}`}`);
    const temporal = await startTemporalDev({
      binary, port, uiPort, headless: false, codecEndpoint,
      dbFile: test ? null : path.join(ROOT, '.data', 'temporal.db'),
      dynamicConfig: purpose === 'test' ? { ...TEST_DYNAMIC_CONFIG, ...ONE_PARTITION } : {},
    });
    stops.push(() => temporal.stop());
    temporalAddress = temporal.address;
    temporalWebUrl = temporal.webUrl;
    temporalDeath = temporal.death;
  }
  return {
    serverUrl,
    temporalAddress,
    temporalWebUrl,
    /** What a failed run says about the dependencies it started: the Temporal dev server's end, if it died. */
    diagnose: () => {
      if (!temporalDeath) return `Temporal at ${temporalAddress} is not one this run started`;
      const death = temporalDeath();
      return death ? `the Temporal dev server ${death}` : 'the Temporal dev server it started is still running';
    },
    async stop() {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
    },
  };
}
