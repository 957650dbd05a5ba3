import knex, { Knex } from 'knex';
import { types } from 'pg';
import path from 'node:path';

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

export const migrationConfig: Knex.MigratorConfig = {
  directory: path.join(__dirname, 'migrations'),
  loadExtensions: ['.ts'],
  tableName: 'knex_migrations',
};

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest(migrationConfig);
}
