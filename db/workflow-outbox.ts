import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { OutboxRow, WorkflowOutboxRepository } from './repositories/workflow-outbox';
import { startOnce } from './workflow-start';
import { activeTraceparent, continueTrace } from './telemetry/trace-context';
import { DISPLAY_NUMBER, ENVIRONMENT, LIFECYCLE_STATUS, ORIGINATOR_ID } from '../workflows/search-attributes';

/**
 * DESIGN.md §4: a workflow start is written to the outbox in the transaction that creates its
 * business record; after commit the api starts it, and the worker's relay starts whatever the
 * api did not. Starting is idempotent by workflow id, so the two can never make two workflows.
 */
export interface WorkflowStart extends Omit<OutboxRow, 'id' | 'traceparent'> {
  originatorId: string;
}

export type { OutboxRow };

/** Writes the entry in the caller's transaction and returns it, so the caller can start it after commit without reading it back. */
export async function enqueueWorkflow(trx: Knex, start: WorkflowStart): Promise<OutboxRow> {
  const { originatorId, ...entry } = start;
  const row: OutboxRow = { id: uuidv7(), ...entry, traceparent: activeTraceparent() };
  await new WorkflowOutboxRepository(trx).insert(row, originatorId);
  return row;
}

/** Whoever makes the start (the api after commit, or the relay later), it belongs to the trace of the request that wrote the entry. */
function start(client: Client, taskQueue: string, row: OutboxRow): Promise<void> {
  const sa = row.searchAttributes;
  return continueTrace(row.traceparent, () => startOnce(client, row.workflowType, {
    workflowId: row.workflowId,
    taskQueue,
    args: row.args,
    typedSearchAttributes: [
      { key: ORIGINATOR_ID, value: sa.originatorId },
      { key: LIFECYCLE_STATUS, value: sa.lifecycleStatus },
      { key: DISPLAY_NUMBER, value: sa.displayNumber },
      { key: ENVIRONMENT, value: sa.environment },
    ],
  }));
}

/** Starts an entry just committed and marks it done; failures are left for the relay. */
export async function startEntry(db: Knex, client: Client, taskQueue: string, row: OutboxRow): Promise<void> {
  await start(client, taskQueue, row);
  await new WorkflowOutboxRepository(db).started(row.id);
}

/** Starts the entry of `workflowId` if it is still pending (a call that needs the workflow now). */
export async function startEnqueued(db: Knex, client: Client, taskQueue: string, workflowId: string): Promise<void> {
  const row = await new WorkflowOutboxRepository(db).pendingFor(workflowId);
  if (row) await startEntry(db, client, taskQueue, row);
}

/** The relay: every entry still pending after `olderThanMs` is started (oldest first). */
export async function relayPending(db: Knex, client: Client, taskQueue: string, olderThanMs: number, batch = 100): Promise<number> {
  const outbox = new WorkflowOutboxRepository(db);
  const rows = await outbox.pendingOlderThan(olderThanMs, batch);
  for (const row of rows) {
    try {
      await start(client, taskQueue, row);
      await outbox.started(row.id);
    } catch (err) {
      await outbox.failed(row.id, (err as Error).message);
    }
  }
  return rows.length;
}
