#!/usr/bin/env node
// `npm run test:model`: the operation workflow against its model (test/model/), 1,000 interleavings
// on the time-skipping test server, several at once. Needs neither Postgres nor a Temporal server:
// the activities are stand-ins. Options: --runs N, --concurrency N, --seed S (a fresh one otherwise),
// --path P (with --seed: replay the one interleaving a failure printed, and shrink it), --max-failures N
// (go on after a failure, to list up to N at once), --no-clocks (leaves out the one run in three on a sandbox test clock, issue #26).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ensureTestServer } from './lib/test-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '6' }, seed: { type: 'string' }, path: { type: 'string' },
    'max-failures': { type: 'string', default: '1' }, clocks: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
if (values.path !== undefined && values.seed === undefined) throw new Error('--path replays a failure: give its --seed too');
await ensureTestServer();
const env = {
  ...process.env, MODEL_RUNS: values.runs, MODEL_CONCURRENCY: values.concurrency, MODEL_MAX_FAILURES: values['max-failures'],
  ...(values.clocks ? {} : { MODEL_CLOCKS: '0' }), ...(values.seed === undefined ? {} : { MODEL_SEED: values.seed }), ...(values.path === undefined ? {} : { MODEL_PATH: values.path }),
};
// No .mocharc: its root hooks prepare the suite's database, which the model does not use.
const child = spawn(process.execPath, [
  path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--no-config', '--require', 'tsx/cjs', '--timeout', '0', '--exit',
  'test/workflows/operation-model.test.ts',
], { cwd: ROOT, stdio: 'inherit', env });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
