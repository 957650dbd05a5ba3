#!/usr/bin/env node
// `npm run build`: the compiled JavaScript production runs (`node dist/api/server.js`,
// `node dist/worker/main.js`, `node dist/db/cli.js migrate`, `node dist/sandbox/main.js`).
// A fresh dist/ each time, so nothing stale from a deleted source file is shipped.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
process.exit(result.status ?? 1);
