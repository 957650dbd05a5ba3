// The Temporal cluster's binaries, built from their Go modules at pinned versions into .tools/
// (one folder each: the server and the UI server are both called `server`). A second start finds
// them and builds nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT, say } from './infra.mjs';

export const TEMPORAL_SERVER_VERSION = '1.29.1';
export const TEMPORAL_UI_SERVER_VERSION = '2.53.3';

const TOOLS = {
  server: { module: 'go.temporal.io/server/cmd/server', version: TEMPORAL_SERVER_VERSION, folder: `temporal-server-${TEMPORAL_SERVER_VERSION}`, binary: 'server' },
  sql: { module: 'go.temporal.io/server/cmd/tools/sql', version: TEMPORAL_SERVER_VERSION, folder: `temporal-sql-tool-${TEMPORAL_SERVER_VERSION}`, binary: 'sql' },
  ui: { module: 'github.com/temporalio/ui-server/v2/cmd/server', version: TEMPORAL_UI_SERVER_VERSION, folder: `temporal-ui-server-${TEMPORAL_UI_SERVER_VERSION}`, binary: 'server' },
};

function ensure(name) {
  const tool = TOOLS[name];
  const folder = path.join(ROOT, '.tools', tool.folder);
  const binary = path.join(folder, tool.binary);
  if (existsSync(binary)) return binary;
  if (spawnSync('go', ['version']).status !== 0) throw new Error(`building ${tool.module} needs Go (https://go.dev/dl/); none found on PATH`);
  say(`building ${tool.module}@v${tool.version} into ${path.relative(ROOT, folder)} (minutes, once)...`);
  const started = Date.now();
  // Built into a side folder and moved in whole, so an interrupted build is never taken for a binary.
  const partial = `${folder}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execFileSync('go', ['install', `${tool.module}@v${tool.version}`], { stdio: 'inherit', env: { ...process.env, GOBIN: partial, CGO_ENABLED: '0' } });
  rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
  say(`built ${path.relative(ROOT, binary)} in ${Math.round((Date.now() - started) / 1000)} s`);
  return binary;
}

/** Paths of the server, the SQL schema tool and (unless `web` is false) the UI server. */
export function ensureClusterTools({ web = true } = {}) {
  return { server: ensure('server'), sql: ensure('sql'), ui: web ? ensure('ui') : null };
}
