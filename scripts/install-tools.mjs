#!/usr/bin/env node
// `npm run install-tools`: every pinned tool outside node_modules, into .tools/ (each is reused
// when present): the Temporal CLI, oasdiff, schemathesis and the time-skipping test server.
import { ensureTemporal } from './install-temporal.mjs';
import { ensureOasdiff, ensureSchemathesis } from './lib/contract-tools.mjs';
import { ensureTestServer } from './lib/test-server.mjs';

for (const ensure of [ensureTemporal, ensureOasdiff, ensureSchemathesis, ensureTestServer]) process.stdout.write(`${await ensure()}\n`);
