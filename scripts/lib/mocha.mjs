import { spawn } from 'node:child_process';
import path from 'node:path';
import { createDatabase, dropDatabase, ROOT, say } from './infra.mjs';
import { ephemeralSecrets } from './secrets.mjs';

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
    // Passwords at scrypt N=2^14 instead of 2^17 keep the suite's many logins quick; test/api/passwords.test.ts runs 2^17.
    env: {
      ...process.env, ...ephemeralSecrets(), DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, SERVICE_ENV: 'dev',
      PASSWORD_SCRYPT_LOG2N: process.env.PASSWORD_SCRYPT_LOG2N ?? '14',
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
