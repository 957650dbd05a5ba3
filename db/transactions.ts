import type { Knex } from 'knex';

/*
 * knex's transaction without a handler reports a failed BEGIN or COMMIT (a Postgres going away,
 * our own query bound) only through its execution promise: `await db.transaction()` still hands
 * out the transaction, already completed, and `await trx.commit()` still resolves. These two read
 * that promise, so a caller never takes a rolled-back transaction for a committed one (and starts
 * a workflow for an operation that does not exist) or reports an outage as "already complete".
 */

export async function begin(db: Knex): Promise<Knex.Transaction> {
  const trx = await db.transaction();
  if (trx.isCompleted()) await trx.executionPromise;
  return trx;
}

export async function commit(trx: Knex.Transaction): Promise<void> {
  await trx.commit();
  await trx.executionPromise;
}
