import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OutputTail, STARTUP_BOUNDS_MS, waitForChildPort } from './startup.mjs';

const SEARCH_ATTRIBUTES = JSON.parse(readFileSync(new URL('./search-attributes.json', import.meta.url), 'utf8'));

/**
 * The Temporal settings every test server runs with (dev server and cluster alike). Long waits
 * continue as new after a few dozen events instead of thousands, so the paths that continue as new
 * run in every test run. That makes runs continue as new within their first second, which
 * production never does; the server would then hold the new run's first task until a second after
 * the old run began (its guard against continue-as-new loops, `ContinueAsNewMinBackoff`), and any
 * update racing that continue-as-new would wait out a second that only tests have (issue #23).
 */
export const TEST_DYNAMIC_CONFIG = Object.freeze({
  'limit.historyCount.suggestContinueAsNew': 40,
  'history.workflowIdReuseMinimalInterval': '0s',
});

/**
 * The suite's dev server keeps each task queue in one partition instead of four: every file of a
 * parallel run polls a task queue of its own, and one worker gains nothing from four, whose polls
 * and tasks the server forwards between partitions. Its CPU over a whole `npm test` fell from 31–34
 * to 28 seconds (docs/lab/suite-wall-time.md). Not in TEST_DYNAMIC_CONFIG: the cluster's tests run
 * on production's partitions.
 */
export const ONE_PARTITION = Object.freeze({
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
});

/** `temporal server start-dev`: the server with Temporal Web built in, our search attributes registered. */
export async function startTemporalDev({ binary, port, uiPort, dbFile = null, headless = false, codecEndpoint = null, dynamicConfig = {}, log = () => {} }) {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn', '--log-format', 'json'];
  if (headless) args.push('--headless');
  else args.push('--ui-port', String(uiPort));
  // Temporal Web decodes payloads through the api's codec endpoint (operators only; see docs/operations.md).
  if (codecEndpoint && !headless) args.push('--ui-codec-endpoint', codecEndpoint);
  if (dbFile) {
    // Its folder may not exist yet: as root from a closed folder, Postgres's data lives elsewhere.
    mkdirSync(path.dirname(dbFile), { recursive: true });
    args.push('--db-filename', dbFile);
  }
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries(dynamicConfig)) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => log(String(d)));
  child.stderr.on('data', (d) => log(String(d)));
  let exited = false;
  child.on('exit', () => { exited = true; });
  const tail = new OutputTail().follow(child);
  await waitForChildPort({ child, port, timeoutMs: STARTUP_BOUNDS_MS.temporalDev, what: 'Temporal dev server', tail });
  return {
    address: `127.0.0.1:${port}`,
    webUrl: headless ? null : `http://127.0.0.1:${uiPort}`,
    /** Null while it runs; once it has died, how it ended and its last output. */
    death: () => (exited ? `exited (${child.exitCode ?? child.signalCode}); ${tail.describe()}` : null),
    stop: () => new Promise((resolve) => {
      if (exited) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    }),
  };
}
