#!/usr/bin/env node
// `npm test`: the whole suite against real Postgres and a real Temporal server, started here when
// DATABASE_URL / TEMPORAL_ADDRESS are not given. Each run gets a fresh database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createDatabase, dropDatabase, ROOT, say, startInfra } from './lib/infra.mjs';

const infra = await startInfra({ purpose: 'test' });
const database = `ra_test_${process.pid}`;
const databaseUrl = await createDatabase(infra.serverUrl, database, { recreate: true });
say(`test database ${database}; Temporal at ${infra.temporalAddress}${infra.temporalWebUrl ? `, Web ${infra.temporalWebUrl}` : ''}`);

// Files named on the command line run alone; otherwise the whole suite.
const mochaArgs = process.argv.slice(2);
if (!mochaArgs.some((arg) => !arg.startsWith('-'))) mochaArgs.push('test/**/*.test.ts');
const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...mochaArgs], {
  cwd: ROOT,
  stdio: 'inherit',
  env: {
    ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: infra.temporalAddress, SERVICE_ENV: 'dev',
    ...(infra.temporalWebUrl ? { TEMPORAL_WEB_URL: infra.temporalWebUrl } : {}),
  },
});
const stopChild = () => child.kill('SIGINT');
process.on('SIGINT', stopChild);
process.on('SIGTERM', stopChild);
const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await dropDatabase(infra.serverUrl, database).catch(() => undefined);
await infra.stop();
process.exit(code);
