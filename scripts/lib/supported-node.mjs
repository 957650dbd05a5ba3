// Node built-ins only. The project runs on the Node.js 24 that `npm install` brings as the npm
// package `node` (node_modules/.bin/node, first on the PATH of every npm script). A script started
// by another node (`node scripts/x.mjs` by hand, or `npm run dev` on a fresh clone, whose PATH had
// no project node yet when npm started it) runs itself again on the project's node, so that every
// child it spawns with process.execPath runs on it too.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUPPORTED_MAJOR = 24;

/** Resolves at once on the project's node; otherwise never: this process ends when its re-run does. */
export function ensureSupportedNode() {
  const projectNode = path.join(ROOT, 'node_modules', '.bin', 'node');
  if (existsSync(projectNode) && realpathSync(projectNode) !== realpathSync(process.execPath)) {
    const child = spawn(projectNode, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
    // Ctrl-C reaches both through the terminal; a signal sent to this process alone is passed on.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
    return new Promise(() => undefined);
  }
  if (Number(process.versions.node.split('.')[0]) < SUPPORTED_MAJOR) {
    process.stderr.write(`Node.js ${SUPPORTED_MAJOR} is required (this is ${process.version}): \`npm install\` brings it into node_modules/.bin/node\n`);
    process.exit(1);
  }
  return Promise.resolve();
}
