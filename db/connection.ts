import knex, { Knex } from 'knex';
import { types } from 'pg';
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { BUDGET_SPENT, nextWait } from './request-budget';
import type { Logger } from '../platform/logger';

// numeric columns hold money: keep them as strings so they reach decimal.js without a float.
types.setTypeParser(types.builtins.NUMERIC, (value: string) => value);
// bigint counters fit comfortably in a JS number for our volumes.
types.setTypeParser(types.builtins.INT8, (value: string) => Number(value));
// dates are calendar dates (YYYY-MM-DD), never shifted through a time zone.
types.setTypeParser(types.builtins.DATE, (value: string) => value);

export type Db = Knex;

/**
 * Postgres gives up a lock wait (55P03) a little before our own bound would cut the query, so a
 * request held up by a row another transaction holds says so (503 `database_lock_timeout`) rather
 * than passing for a database outage.
 */
const lockTimeoutMs = (failFastMs: number) => Math.max(1, failFastMs - 300);

/**
 * knex's own warnings (a connection that could not be acquired or ended unexpectedly, with its stack)
 * go to `logger` as structured lines: printed by knex to the console they were bare text in the
 * services' JSON log, over a hundred lines of it in a run whose tests stop Postgres on purpose. The
 * failures themselves reach the code that asked (503 `database_unavailable` on the api).
 */
function knexLog(logger: Logger): Knex.Config['log'] {
  const at = (level: 'warn' | 'error' | 'debug') => (message: unknown) => logger.log(level, 'database client', { detail: String(message) });
  return { warn: at('warn'), error: at('error'), debug: at('debug'), deprecate: (method: string, alternative: string) => logger.warn('database client', { detail: `${method} is deprecated; use ${alternative}` }) };
}

/**
 * `failFastMs` bounds connecting, acquiring from the pool and each query on the client side, so a
 * Postgres that is down or frozen (no answer at all, as a hung host or a partition looks) turns into
 * an error within that time instead of a request that hangs; inside `withDatabaseBudget` the waits
 * of one request share that time. Without it (migrations, scripts, the worker) a slow query is left
 * to finish. `logger`, the process's, takes knex's own warnings (`knexLog`).
 */
export function createDb(databaseUrl: string, poolMax = 40, failFastMs: number | null = null, logger: Logger | null = null): Db {
  const db = knex({
    client: 'pg',
    connection: failFastMs === null
      ? databaseUrl
      : { connectionString: databaseUrl, connectionTimeoutMillis: failFastMs, query_timeout: failFastMs, options: `-c lock_timeout=${lockTimeoutMs(failFastMs)}` },
    pool: { min: 0, max: poolMax, ...(failFastMs === null ? {} : { afterCreate: boundQueries(failFastMs) }) },
    acquireConnectionTimeout: failFastMs ?? 15_000,
    ...(logger ? { log: knexLog(logger) } : {}),
  });
  if (failFastMs !== null) boundAcquire(db.client as PoolClient, failFastMs);
  return db;
}

const MIGRATIONS = path.join(__dirname, 'migrations');
/** `.ts` from source (tsx), `.js` from the compiled build (`dist/`). */
const OWN_EXTENSION = path.extname(__filename);

/**
 * The migrations beside this file, source or compiled. Each is recorded under its source name
 * (`.ts`), as it always was, so a database migrated from source and then by the build (or the
 * other way round) sees the same history.
 */
const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return readdirSync(MIGRATIONS).filter((file) => file.endsWith(OWN_EXTENSION) && !file.endsWith('.d.ts')).sort();
  },
  getMigrationName(file) {
    return `${file.slice(0, -OWN_EXTENSION.length)}.ts`;
  },
  getMigration(file) {
    // require, not import(): the test run loads TypeScript through tsx's CommonJS hook only, which import() bypasses.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path.join(MIGRATIONS, file));
  },
};

interface PgConnection {
  query(config: unknown, callback?: (err: Error | null, result?: unknown) => void): unknown;
  connection: { stream: { destroy(): void } };
  __knex__disposed?: unknown;
}

interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/**
 * A query that timed out on our side may still run on the server, and the connection is then out
 * of step with its transaction (later queries would land in a transaction the server has aborted).
 * Such a connection is closed at once, so Postgres rolls back whatever it held, and the pool never
 * hands it out again. A query refused because its request's budget is spent closes its connection
 * the same way: the transaction it belongs to can no longer be rolled back by a statement.
 */
function boundQueries(failFastMs: number) {
  return (connection: PgConnection, done: (err: Error | null, connection: PgConnection) => void): void => {
    const query = connection.query.bind(connection);
    const drop = (err: Error) => {
      connection.__knex__disposed = err;
      connection.connection.stream.destroy();
    };
    connection.query = (config, callback) => {
      if (!callback || typeof config !== 'object' || config === null) return query(config, callback);
      const wait = nextWait(failFastMs);
      if (wait.limitMs === 0) {
        const spent = new Error(BUDGET_SPENT);
        drop(spent);
        process.nextTick(() => callback(spent));
        return undefined;
      }
      return query({ ...config, query_timeout: wait.limitMs }, (err, result) => {
        wait.done();
        if (err?.message === 'Query read timeout') drop(err);
        callback(err, result);
      });
    };
    done(null, connection);
  };
}

/** A pool acquire waits no longer than its request's budget; a connection that comes too late goes back to the pool. */
function boundAcquire(client: PoolClient, failFastMs: number): void {
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = () => {
    const wait = nextWait(failFastMs);
    if (wait.limitMs === 0) return Promise.reject(new Error(BUDGET_SPENT));
    if (wait.limitMs >= failFastMs) return acquire().finally(wait.done);
    return new Promise((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        wait.done();
        reject(new Error(BUDGET_SPENT));
      }, wait.limitMs);
      acquire().then((connection) => {
        if (late) return void client.releaseConnection(connection);
        clearTimeout(timer);
        wait.done();
        resolve(connection);
      }, (err: unknown) => {
        if (late) return;
        clearTimeout(timer);
        wait.done();
        reject(err);
      });
    });
  };
}

export const migrationConfig: Knex.MigratorConfig = {
  migrationSource,
  tableName: 'knex_migrations',
};

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest(migrationConfig);
}
