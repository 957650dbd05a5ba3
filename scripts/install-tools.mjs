#!/usr/bin/env node
// `npm run install-tools`: every pinned tool outside node_modules, into .tools/ (each is reused
// when present): the Temporal CLI, oasdiff, schemathesis and the time-skipping test server.
// `npm run install-tools -- cluster`: instead, the cluster's binaries built from their Go modules
// (the Temporal server and its SQL tool, Temporal Web's UI server, Jaeger), which `npm run cluster`
// and the cluster tests otherwise build on first use.
// `npm run install-tools -- <tool> ...`: only the tools named (temporal, oasdiff, schemathesis,
// test-server, temporal-server, temporal-web, jaeger). CI installs each as a background job of its
// own, so a step waits only for the tools it uses, and two jobs never install the same tool at once.
import { ensureTemporal } from './install-temporal.mjs';
import { ensureClusterTools, ensureJaeger, ensureTemporalWeb } from './lib/cluster-tools.mjs';
import { ensureOasdiff, ensureSchemathesis } from './lib/contract-tools.mjs';
import { ensureTestServer } from './lib/test-server.mjs';

const TOOLS = {
  temporal: ensureTemporal,
  oasdiff: ensureOasdiff,
  schemathesis: ensureSchemathesis,
  'test-server': ensureTestServer,
  'temporal-server': () => Object.values(ensureClusterTools({ web: false })).filter(Boolean).join('\n'),
  'temporal-web': ensureTemporalWeb,
  jaeger: ensureJaeger,
};
const SETS = {
  dev: ['temporal', 'oasdiff', 'schemathesis', 'test-server'],
  cluster: ['temporal-server', 'temporal-web', 'jaeger'],
};

const args = process.argv.slice(2);
const names = (args.length === 0 ? ['dev'] : args).flatMap((name) => SETS[name] ?? [name]);
const unknown = names.filter((name) => !TOOLS[name]);
if (unknown.length > 0) {
  process.stderr.write(`install-tools: unknown ${unknown.join(', ')}; usage: install-tools [dev | cluster | ${Object.keys(TOOLS).join(' | ')} ...]\n`);
  process.exit(2);
}
for (const name of names) process.stdout.write(`${await TOOLS[name]()}\n`);
