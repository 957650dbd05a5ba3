import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { DISPLAY_NUMBER, ENVIRONMENT, LIFECYCLE_STATUS, ORIGINATOR_ID } from '../domain/search-attributes';
import { OutboxRow, WorkflowOutboxRepository } from '../db/repositories/workflow-outbox';
import { continueTrace } from '../platform/telemetry/trace-context';
import { startOnce } from './workflow-start';

/**
 * The starting half of the workflow outbox (db/workflow-outbox.ts writes the entries): the api
 * starts an entry after its commit, the worker's relay whatever the api did not. Starting is
 * idempotent by workflow id, so the two can never make two workflows.
 */

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
