#!/usr/bin/env node
// `npm run test:cluster -- <files>`: test files against the production Temporal path — the server
// built from its Go module on Postgres persistence (`npm run cluster`'s), in a fresh data folder —
// instead of the dev server. The test run brings its own api, worker and sandbox, as `npm test` does.
// `npm run test:cluster -- --apps <files>`: the cluster's own processes too — two api processes
// behind one address, two workers and the sandbox — and the tests call that address
// (TEST_API_URL; test/support/stack.ts then starts no api, worker or sandbox of its own).
import './lib/on-supported-node.mjs';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startCluster, UNEXHAUSTED_RATE_LIMITS } from './lib/cluster.mjs';
import { ROOT } from './lib/infra.mjs';
import { runMocha, testDatabaseName } from './lib/mocha.mjs';
import { TEST_DYNAMIC_CONFIG } from './lib/temporal.mjs';
import { ephemeralSecrets } from './lib/secrets.mjs';

const args = process.argv.slice(2);
const apps = args.includes('--apps');
const dataDir = path.join(ROOT, '.data', `cluster-test-${process.pid}`);
// What the suite's own api would get from test/support/stack.ts: budgets the suite cannot exhaust,
// quick password hashing, the dev environment, and secrets the tests share with the processes.
const testEnv = {
  ...ephemeralSecrets(), ...UNEXHAUSTED_RATE_LIMITS, SERVICE_ENV: 'dev', PASSWORD_SCRYPT_LOG2N: process.env.PASSWORD_SCRYPT_LOG2N ?? '10',
  OPENAPI_VALIDATE_RESPONSES: 'true',
};
const cluster = await startCluster({
  fixedPorts: false, fresh: true, web: false, apps, dataDir,
  env: { ...process.env, ...testEnv, CLUSTER_DATABASE: testDatabaseName() },
  dynamicConfig: TEST_DYNAMIC_CONFIG,
});
let code = 1;
try {
  ({ code } = await runMocha({
    args: args.filter((arg) => arg !== '--apps'),
    serverUrl: cluster.serverUrl,
    temporalAddress: cluster.temporal.address,
    ...(apps ? { env: { ...testEnv, TEST_API_URL: cluster.apiUrl, TEST_SANDBOX_URL: cluster.sandboxUrl, TEST_API_METRICS_URL: cluster.metricsUrls.apis[0], TEST_WORKER_METRICS_URL: cluster.metricsUrls.workers[0], TEST_PROMETHEUS_URL: cluster.prometheus?.url ?? '', TEST_JAEGER_URL: cluster.jaeger?.queryUrl ?? '' }, freshDatabase: false } : {}),
  }));
} finally {
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
