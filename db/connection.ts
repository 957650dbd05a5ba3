import knex, { Knex } from 'knex';
import { types } from 'pg';
import path from 'node:path';
import { readdirSync } from 'node:fs';

// numeric columns hold money: keep them as strings so they reach decimal.js without a float.
types.setTypeParser(types.builtins.NUMERIC, (value: string) => value);
// bigint counters fit comfortably in a JS number for our volumes.
types.setTypeParser(types.builtins.INT8, (value: string) => Number(value));
// dates are calendar dates (YYYY-MM-DD), never shifted through a time zone.
types.setTypeParser(types.builtins.DATE, (value: string) => value);

export type Db = Knex;

export function createDb(databaseUrl: string, poolMax = 40): Db {
  return knex({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 15_000,
  });
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

export const migrationConfig: Knex.MigratorConfig = {
  migrationSource,
  tableName: 'knex_migrations',
};

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest(migrationConfig);
}
