// The service processes on top of Postgres and Temporal, the way `npm run dev` runs them: migrations
// and the dev seed, then the sandbox providers, the worker and the api, each a tsx child.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, say } from './infra.mjs';
import { ephemeralSecrets } from './secrets.mjs';

// This script's own node (Node 24), not whichever `node` tsx's shebang would find on the PATH.
const TSX = ['--import', 'tsx'];

/**
 * The environment the api, worker and sandbox share; `overrides` win over the caller's own. The
 * secrets they refuse to start without are fresh for each run unless `overrides` bring kept ones.
 */
export function serviceEnv({ databaseUrl, temporalAddress, apiPort, sandboxPort, overrides = {} }) {
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  return {
    ...process.env,
    ...ephemeralSecrets(),
    SERVICE_ENV: process.env.SERVICE_ENV ?? 'dev',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    PORT: String(apiPort),
    PUBLIC_URL: process.env.PUBLIC_URL ?? apiUrl,
    ESIGN_URL: process.env.ESIGN_URL ?? `${sandboxUrl}/esign`,
    PIX_URL: process.env.PIX_URL ?? `${sandboxUrl}/pix`,
    MAIL_SANDBOX_URL: process.env.MAIL_SANDBOX_URL ?? `${sandboxUrl}/mail`,
    PIX_COLLECTION_URL: process.env.PIX_COLLECTION_URL ?? `${sandboxUrl}/api-pix/v2`,
    PIX_COLLECTION_TOKEN_URL: process.env.PIX_COLLECTION_TOKEN_URL ?? `${sandboxUrl}/api-pix/oauth/token`,
    SEFAZ_SANDBOX_URL: process.env.SEFAZ_SANDBOX_URL ?? `${sandboxUrl}/sefaz`,
    REGISTRAR_URL: process.env.REGISTRAR_URL ?? `${sandboxUrl}/escriturador`,
    SANDBOX_PORT: String(sandboxPort),
    WEBHOOKS_ALLOW_PRIVATE_HOSTS: process.env.WEBHOOKS_ALLOW_PRIVATE_HOSTS ?? 'true',
    ...overrides,
  };
}

export function migrateAndSeed(env) {
  say('migrating and seeding the dev data...');
  return spawnSync(process.execPath, [...TSX, 'db/cli.ts', 'migrate', 'seed'], { cwd: ROOT, env, stdio: 'inherit' }).status === 0;
}

/**
 * Starts the sandbox (when present), the worker and the api. `onExit(name, code)` hears of a child
 * that ends before `stop()`; `stop()` ends them all and resolves when they are gone. Each process
 * has its own metrics listener: `metricsPorts` gives the api's and the worker's (0: a free port).
 */
export function startServices(env, { onExit = () => {}, stdio = 'inherit', metricsPorts = { api: 0, worker: 0 } } = {}) {
  const children = [];
  let stopping = false;
  const start = (name, entry, own = {}) => {
    const child = spawn(process.execPath, [...TSX, entry], { cwd: ROOT, env: { ...env, ...own }, stdio: ['ignore', stdio, stdio] });
    child.on('exit', (code, signal) => { if (!stopping) onExit(name, code ?? signal); });
    children.push(child);
  };
  if (existsSync(path.join(ROOT, 'sandbox', 'main.ts'))) start('sandbox', 'sandbox/main.ts');
  start('worker', 'worker/main.ts', { METRICS_PORT: String(metricsPorts.worker) });
  start('api', 'api/server.ts', { METRICS_PORT: String(metricsPorts.api) });
  return {
    stop: async () => {
      stopping = true;
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    },
  };
}
