import pg from 'pg';

/**
 * `TEST_JOBS` > 1 (scripts/lib/mocha.mjs): mocha runs files in parallel worker processes, and each
 * file gets its own database, cloned from the run's migrated and seeded template
 * (`CREATE DATABASE ... TEMPLATE`, a file copy: no migration per file), and its own task queue,
 * so no file's worker picks up another's workflows. Unset, the run shares one database, as before.
 */
const template = process.env.TEST_TEMPLATE_DATABASE;
let files = 0;
let current: string | undefined;

async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Whether this run clones a database per file (then the template is migrated and seeded already). */
export const clonesPerFile = (): boolean => template !== undefined;

export async function cloneFileDatabase(): Promise<void> {
  if (!template) return;
  files += 1;
  current = `${template}_${process.pid}_${files}`;
  await onServer(`create database "${current}" template "${template}"`);
  const url = new URL(process.env.TEST_SERVER_URL!);
  url.pathname = `/${current}`;
  process.env.DATABASE_URL = url.toString();
  process.env.TEMPORAL_TASK_QUEUE = `tests-${current}`;
}

export async function dropFileDatabase(): Promise<void> {
  if (!current) return;
  const name = current;
  current = undefined;
  await onServer(`drop database if exists "${name}" with (force)`);
}
