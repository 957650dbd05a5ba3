// The Temporal cluster's binaries, built from their Go modules at pinned versions into .tools/
// (one folder each: the server and the UI server are both called `server`). A second start finds
// them and builds nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, say } from './infra.mjs';

export const TEMPORAL_SERVER_VERSION = '1.29.1';
export const TEMPORAL_UI_SERVER_VERSION = '2.53.3';
export const JAEGER_VERSION = '1.76.0';

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

/** Temporal Web's UI server alone, for a browser test of the cluster's Temporal Web against any Temporal. */
export function ensureTemporalWeb() {
  return ensure('ui');
}

/**
 * Jaeger v2 (`cmd/jaeger`: OTLP receiver, in-memory storage, query API), built from its Go module:
 * `go install module@version` refuses a module whose go.mod has replace directives, as Jaeger's
 * does, so it is required as a tool by a scratch module under .tools/ and built from there.
 */
export function ensureJaeger() {
  const folder = path.join(ROOT, '.tools', `jaeger-${JAEGER_VERSION}`);
  const binary = path.join(folder, 'jaeger');
  if (existsSync(binary)) return binary;
  if (spawnSync('go', ['version']).status !== 0) throw new Error('building Jaeger needs Go (https://go.dev/dl/); none found on PATH');
  const module = 'github.com/jaegertracing/jaeger/cmd/jaeger';
  say(`building ${module}@v${JAEGER_VERSION} into ${path.relative(ROOT, folder)} (minutes, once)...`);
  const started = Date.now();
  const scratch = path.join(ROOT, '.tools', `jaeger-${JAEGER_VERSION}.module`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(path.join(scratch, 'go.mod'), 'module receivables.local/jaeger-build\n\ngo 1.24\n');
  const go = (args) => execFileSync('go', args, { cwd: scratch, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
  go(['get', '-tool', `${module}@v${JAEGER_VERSION}`]);
  const partial = `${folder}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  go(['build', '-o', path.join(partial, 'jaeger'), module]);
  rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
  say(`built ${path.relative(ROOT, binary)} in ${Math.round((Date.now() - started) / 1000)} s`);
  return binary;
}
