#!/usr/bin/env node
// `npm run build`: the compiled JavaScript production runs (`node dist/api/server.js`,
// `node dist/worker/main.js`, `node dist/db/cli.js migrate`, `node dist/sandbox/main.js`).
// A fresh dist/ each time, so nothing stale from a deleted source file is shipped.
import './lib/on-supported-node.mjs';
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
// What the compiled code reads beside itself: the console's and docs' pages, and the frozen OpenAPI releases.
for (const folder of ['api/web', 'api/openapi/releases']) cpSync(path.join(ROOT, folder), path.join(ROOT, 'dist', folder), { recursive: true });
