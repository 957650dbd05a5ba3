import { spawn } from 'node:child_process';
import path from 'node:path';
import { createDatabase, dropDatabase, ROOT, say } from './infra.mjs';

/**
 * Runs mocha on `args` (files named there run alone; otherwise the whole suite) in a fresh
 * database on `serverUrl`, against the Temporal server at `temporalAddress`. Resolves to the exit code.
 */
export async function runMocha({ args, serverUrl, temporalAddress, temporalWebUrl = null }) {
  const database = `ra_test_${process.pid}`;
  const databaseUrl = await createDatabase(serverUrl, database, { recreate: true });
  say(`test database ${database}; Temporal at ${temporalAddress}${temporalWebUrl ? `, Web ${temporalWebUrl}` : ''}`);
  const mochaArgs = [...args];
  if (!mochaArgs.some((arg) => !arg.startsWith('-'))) mochaArgs.push('test/**/*.test.ts');
  const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...mochaArgs], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, SERVICE_ENV: 'dev',
      ...(temporalWebUrl ? { TEMPORAL_WEB_URL: temporalWebUrl } : {}),
    },
  });
  const stopChild = () => child.kill('SIGINT');
  process.on('SIGINT', stopChild);
  process.on('SIGTERM', stopChild);
  const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  await dropDatabase(serverUrl, database).catch(() => undefined);
  return code;
}
