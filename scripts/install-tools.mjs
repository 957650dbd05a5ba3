#!/usr/bin/env node
// `npm run install-tools`: every pinned tool outside node_modules, into .tools/ (each is reused
// when present): the Temporal CLI, oasdiff and schemathesis.
import { ensureTemporal } from './install-temporal.mjs';
import { ensureOasdiff, ensureSchemathesis } from './lib/contract-tools.mjs';

for (const ensure of [ensureTemporal, ensureOasdiff, ensureSchemathesis]) process.stdout.write(`${ensure()}\n`);
