// Node built-ins only: the entry scripts import this before anything from node_modules, so a fresh
// clone gets its dependencies installed (Node.js 24 among them) before the first import that needs
// them, and goes on running on that Node.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSupportedNode } from './supported-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Resolves once the script runs on the project's node (see supported-node.mjs). */
export function ensureDependencies() {
  if (!existsSync(path.join(ROOT, 'node_modules', '.package-lock.json'))) {
    process.stderr.write('\x1b[36m[infra]\x1b[0m installing dependencies (npm install)...\n');
    const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  return ensureSupportedNode();
}
