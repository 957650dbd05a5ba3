import { loadConfig } from '../api/config';
import { migrationConfig } from './connection';

// For the knex CLI (`npx knex --knexfile db/knexfile.ts migrate:make name`).
const config = loadConfig();

export default {
  client: 'pg',
  connection: config.databaseUrl,
  migrations: { ...migrationConfig, extension: 'ts' },
};
