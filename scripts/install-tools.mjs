#!/usr/bin/env node
// `npm run install-tools`: every pinned tool outside node_modules, into .tools/ (each is reused
// when present): the Temporal CLI, oasdiff, schemathesis and the time-skipping test server.
// `npm run install-tools -- cluster`: instead, the cluster's binaries built from their Go modules
// (the Temporal server and its SQL tool, Temporal Web's UI server, Jaeger), which `npm run cluster`
// and the cluster tests otherwise build on first use. CI builds them in the background this way.
import { ensureTemporal } from './install-temporal.mjs';
import { ensureClusterTools, ensureJaeger } from './lib/cluster-tools.mjs';
import { ensureOasdiff, ensureSchemathesis } from './lib/contract-tools.mjs';
import { ensureTestServer } from './lib/test-server.mjs';

const [what = 'dev', ...rest] = process.argv.slice(2);
const SETS = {
  dev: [ensureTemporal, ensureOasdiff, ensureSchemathesis, ensureTestServer],
  cluster: [() => Object.values(ensureClusterTools()).join('\n'), ensureJaeger],
};
if (!SETS[what] || rest.length > 0) {
  process.stderr.write('usage: install-tools [cluster]\n');
  process.exit(2);
}
for (const ensure of SETS[what]) process.stdout.write(`${await ensure()}\n`);
