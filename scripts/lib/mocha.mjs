import { spawn } from 'node:child_process';
import pg from 'pg';
import { globSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, dropDatabase, ROOT, say } from './infra.mjs';
import { ephemeralSecrets } from './secrets.mjs';

/** The database of a test run on `serverUrl`, fresh each run. */
export function testDatabaseName() {
  return `ra_test_${process.pid}`;
}

/**
 * Runs mocha on `args` (files named there run alone; otherwise the whole suite) in a fresh
 * database on `serverUrl` (`freshDatabase: false`: the one already made for processes under test),
 * against the Temporal server at `temporalAddress`. `env` adds to the tests' environment (its
 * secrets win over fresh ones). Resolves to the exit code and the tally line ("N passed, N failed,
 * N skipped"; null when mocha ended before its summary).
 */
export async function runMocha({ args, serverUrl, temporalAddress, temporalWebUrl = null, env = {}, freshDatabase = true }) {
  const database = testDatabaseName();
  const databaseUrl = await createDatabase(serverUrl, database, { recreate: freshDatabase });
  say(`test database ${database}; Temporal at ${temporalAddress}${temporalWebUrl ? `, Web ${temporalWebUrl}` : ''}`);
  const tallyFile = path.join(os.tmpdir(), `mocha-tally-${process.pid}.json`);
  rmSync(tallyFile, { force: true });
  const mochaArgs = [...args];
  const wholeSuite = !mochaArgs.some((arg) => !arg.startsWith('-'));
  // Passwords at scrypt N=2^10 instead of 2^17, and the factories' client secrets at the same instead of 2^14, keep the
  // suite's many logins and token exchanges quick (800 hashes at 2^14 cost 30 CPU-seconds a run). The defaults
  // (2^17, 2^14) are checked in test/api/passwords.test.ts.
  const testEnv = {
    ...process.env, ...ephemeralSecrets(), ...env, MOCHA_TALLY_FILE: tallyFile, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, SERVICE_ENV: 'dev',
    PASSWORD_SCRYPT_LOG2N: process.env.PASSWORD_SCRYPT_LOG2N ?? '10',
    ...(temporalWebUrl ? { TEMPORAL_WEB_URL: temporalWebUrl } : {}),
  };
  // The whole suite runs three files at a time (docs/decisions.md, "The suite's wall time"); files named run one at a time.
  const jobs = Number(process.env.TEST_JOBS ?? (wholeSuite ? 3 : 1));
  const parallel = jobs > 1 && freshDatabase;
  if (parallel) {
    await migrateTemplate(testEnv);
    mkdirSync(path.dirname(DURATIONS_FILE), { recursive: true });
    Object.assign(testEnv, { TEST_TEMPLATE_DATABASE: database, TEST_SERVER_URL: serverUrl, TEST_DURATIONS_FILE: DURATIONS_FILE });
    mochaArgs.push('--parallel', '--jobs', String(jobs));
    say(`${jobs} files at a time, each in its own clone of ${database}`);
  }
  if (wholeSuite) {
    const files = globSync('test/**/*.test.ts', { cwd: ROOT }).sort();
    mochaArgs.push(...(parallel ? longestFirst(files) : files));
  }
  const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...mochaArgs], { cwd: ROOT, stdio: 'inherit', env: testEnv });
  const stopChild = () => child.kill('SIGINT');
  process.on('SIGINT', stopChild);
  process.on('SIGTERM', stopChild);
  const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  await dropDatabase(serverUrl, database).catch(() => undefined);
  if (jobs > 1) await dropClonesOf(serverUrl, database).catch(() => undefined);
  return { code, tally: readTally(tallyFile) };
}

/** Where each file of a parallel run leaves its wall time (test/setup.ts), one JSON line a file. */
const DURATIONS_FILE = path.join(ROOT, '.data', 'test-durations.jsonl');

/**
 * The files, those the last parallel runs took longest on first (and any they did not run before
 * them): the pool hands files out in this order, so a long file started last would run alone at the
 * end while the other job idles. Without a record (a fresh clone), the files' own order. The record
 * is compacted here to one line a file, the latest.
 */
function longestFirst(files) {
  let lines;
  try {
    lines = readFileSync(DURATIONS_FILE, 'utf8').split('\n');
  } catch {
    return files;
  }
  const took = new Map();
  for (const line of lines) {
    // A line cut short (a run stopped mid-write) is dropped at the compaction below.
    try {
      const { file, ms } = JSON.parse(line);
      if (typeof file === 'string' && Number.isFinite(ms)) took.set(file, ms);
    } catch {
      continue;
    }
  }
  writeFileSync(DURATIONS_FILE, [...took].filter(([file]) => files.includes(file)).map(([file, ms]) => `${JSON.stringify({ file, ms })}\n`).join(''));
  const cost = (file) => took.get(file) ?? Infinity;
  return [...files].sort((a, b) => (cost(b) === cost(a) ? a.localeCompare(b) : cost(b) - cost(a)));
}

/**
 * Migrates and seeds the run's database once, as the template each file's database is cloned from
 * (test/support/file-database.ts), and gives it its token signing key (`npm run keys:rotate` on an
 * empty table): otherwise the first api of each file generates an RSA key of its own, 92 of them a
 * run at 77 ms each.
 */
async function migrateTemplate(env) {
  // The rotation's report (the new key's id) is of no use to the run's log.
  for (const [args, stdout] of [[['db/cli.ts', 'migrate', 'seed'], 'inherit'], [['api/auth/keys-cli.ts'], 'ignore']]) {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', stdout, 'inherit'], env });
    const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
    if (code !== 0) throw new Error(`preparing the template database failed: ${args.join(' ')} exited ${code}`);
  }
}

/** The clones a worker process could not drop (one that crashed or was stopped mid-file). */
async function dropClonesOf(serverUrl, template) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select datname from pg_database where starts_with(datname, $1)', [`${template}_`]);
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await client.end();
  }
}

function readTally(file) {
  try {
    const { passes, failures, pending } = JSON.parse(readFileSync(file, 'utf8'));
    return `${passes} passed, ${failures} failed, ${pending} skipped`;
  } catch {
    return null;
  } finally {
    rmSync(file, { force: true });
  }
}
