import { Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { DISPLAY_NUMBER, ENVIRONMENT, LIFECYCLE_STATUS, ORIGINATOR_ID } from '../workflows/search-attributes';

/**
 * DESIGN.md §4: a workflow start is written to the outbox in the transaction that creates its
 * business record; after commit the api starts it, and the worker's relay starts whatever the
 * api did not. Starting is idempotent by workflow id, so the two can never make two workflows.
 */
export interface WorkflowStart {
  originatorId: string;
  workflowType: string;
  workflowId: string;
  args: unknown[];
  searchAttributes: { originatorId: string; lifecycleStatus: string; displayNumber: string; environment: string };
}

/** An outbox entry as stored (`args` and `search_attributes` are jsonb). */
export interface OutboxRow {
  id: string;
  workflow_type: string;
  workflow_id: string;
  args: unknown[];
  search_attributes: WorkflowStart['searchAttributes'];
}

/** Writes the entry in the caller's transaction and returns it, so the caller can start it after commit without reading it back. */
export async function enqueueWorkflow(trx: Knex, start: WorkflowStart): Promise<OutboxRow> {
  const row: OutboxRow = {
    id: uuidv7(), workflow_type: start.workflowType, workflow_id: start.workflowId, args: start.args, search_attributes: start.searchAttributes,
  };
  await trx('workflow_outbox').insert({
    ...row, originator_id: start.originatorId, args: JSON.stringify(row.args), search_attributes: JSON.stringify(row.search_attributes),
  });
  return row;
}

async function start(client: Client, taskQueue: string, row: OutboxRow): Promise<void> {
  const sa = row.search_attributes;
  try {
    await client.workflow.start(row.workflow_type, {
      workflowId: row.workflow_id,
      taskQueue,
      args: row.args,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: ORIGINATOR_ID, value: sa.originatorId },
        { key: LIFECYCLE_STATUS, value: sa.lifecycleStatus },
        { key: DISPLAY_NUMBER, value: sa.displayNumber },
        { key: ENVIRONMENT, value: sa.environment },
      ],
    });
  } catch (err) {
    // Already ran to completion: the workflow exists, which is all the outbox promises.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Starts an entry just committed and marks it done; failures are left for the relay. */
export async function startEntry(db: Knex, client: Client, taskQueue: string, row: OutboxRow): Promise<void> {
  await start(client, taskQueue, row);
  await db('workflow_outbox').where({ id: row.id }).whereNull('started_at').update({ started_at: new Date() });
}

/** Starts the entry of `workflowId` if it is still pending (a call that needs the workflow now). */
export async function startEnqueued(db: Knex, client: Client, taskQueue: string, workflowId: string): Promise<void> {
  const row: OutboxRow | undefined = await db('workflow_outbox').where({ workflow_id: workflowId }).whereNull('started_at').first();
  if (row) await startEntry(db, client, taskQueue, row);
}

/** The relay: every entry still pending after `olderThanMs` is started (oldest first). */
export async function relayPending(db: Knex, client: Client, taskQueue: string, olderThanMs: number, batch = 100): Promise<number> {
  const rows: OutboxRow[] = await db('workflow_outbox').whereNull('started_at')
    .where('created_at', '<', new Date(Date.now() - olderThanMs)).orderBy('created_at').limit(batch);
  for (const row of rows) {
    try {
      await start(client, taskQueue, row);
      await db('workflow_outbox').where({ id: row.id }).update({ started_at: new Date() });
    } catch (err) {
      await db('workflow_outbox').where({ id: row.id }).update({ attempts: db.raw('attempts + 1'), last_error: (err as Error).message });
    }
  }
  return rows.length;
}
