#!/usr/bin/env node
// `npm test`: the whole suite against real Postgres and a real Temporal server, started here when
// DATABASE_URL / TEMPORAL_ADDRESS are not given. Each run gets a fresh database.
import './lib/on-supported-node.mjs';
import { startInfra } from './lib/infra.mjs';
import { runMocha } from './lib/mocha.mjs';

const infra = await startInfra({ purpose: 'test' });
const { code, tally } = await runMocha({ args: process.argv.slice(2), serverUrl: infra.serverUrl, temporalAddress: infra.temporalAddress, temporalWebUrl: infra.temporalWebUrl });
await infra.stop();
// The tally is the log's last line, after everything the shutdown printed: CI's log reader reads it.
if (tally) process.stdout.write(`\n${tally}\n`);
process.exit(code);
