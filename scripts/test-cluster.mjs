#!/usr/bin/env node
// `npm run test:cluster -- <files>`: test files against the production Temporal path — the server
// built from its Go module on Postgres persistence (`npm run cluster`'s), in a fresh data folder —
// instead of the dev server. The test run brings its own api, worker and sandbox, as `npm test` does.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startCluster } from './lib/cluster.mjs';
import { ROOT } from './lib/infra.mjs';
import { runMocha } from './lib/mocha.mjs';

const dataDir = path.join(ROOT, '.data', `cluster-test-${process.pid}`);
const cluster = await startCluster({
  fixedPorts: false, fresh: true, web: false, apps: false, dataDir,
  // As on the test dev server: long waits continue as new after a few dozen events, so those paths run.
  dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 40 },
});
let code = 1;
try {
  code = await runMocha({ args: process.argv.slice(2), serverUrl: cluster.serverUrl, temporalAddress: cluster.temporal.address });
} finally {
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
