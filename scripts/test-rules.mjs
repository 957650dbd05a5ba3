#!/usr/bin/env node
// `npm run test:rules`: the alert and recording rules in ops/prometheus/ are valid (promtool check
// rules) and behave as their unit tests say (promtool test rules ops/prometheus/tests/*.test.yml).
// promtool comes from Debian's prometheus package, installed on first use.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePrometheus } from './install-prometheus.mjs';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'ops', 'prometheus');
const { promtool } = ensurePrometheus();
const run = (args) => spawnSync(promtool, args, { cwd: dir, stdio: 'inherit' }).status === 0;
const rules = readdirSync(dir).filter((name) => name.endsWith('.yml'));
const tests = readdirSync(path.join(dir, 'tests')).filter((name) => name.endsWith('.test.yml')).map((name) => path.join('tests', name));
process.exit(run(['check', 'rules', ...rules]) && run(['test', 'rules', ...tests]) ? 0 : 1);
