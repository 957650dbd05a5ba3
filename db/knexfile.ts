import { loadConfig } from '../platform/config/config';
import path from 'node:path';
import { migrationConfig } from './connection';

// For the knex CLI (`npx knex --knexfile db/knexfile.ts migrate:make name`).
const config = loadConfig();

export default {
  client: 'pg',
  connection: config.databaseUrl,
  // `migrate:make` writes into the folder; running migrations goes through db/connection.ts (`npm run dev`, the entry points).
  migrations: { tableName: migrationConfig.tableName, directory: path.join(__dirname, 'migrations'), extension: 'ts' },
};
