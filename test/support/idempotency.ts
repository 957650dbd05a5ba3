import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Knex } from 'knex';
import { testDb } from './stack';

export const newIdempotencyKey = () => `key-${randomUUID()}`;

/** Holds an uncommitted assignor with this document, so a request inserting it waits on the unique index. */
export async function blockAssignorDocument(originatorId: string, document: string): Promise<Knex.Transaction> {
  const blocker = await testDb().transaction();
  await blocker('assignors').insert({ id: uuidv7(), originator_id: originatorId, type: 'F', document, cpf: document, name: 'Blocker', email: 'b@example.com' });
  return blocker;
}

/** Resolves once some session waits on a lock while running a statement that starts with `statementStart`. */
export async function untilLockWait(statementStart: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const { rows } = await testDb().raw(
      "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike ?", [`${statementStart}%`]);
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`nothing ever waited on a lock in: ${statementStart}`);
}

export const untilAssignorInsertWaits = () => untilLockWait('insert into "assignors"');
export const untilReservationWaits = () => untilLockWait('insert into idempotency_records');
