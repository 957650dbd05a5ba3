import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { OutboxRow, WorkflowOutboxRepository } from './repositories/workflow-outbox';
import { activeTraceparent } from '../platform/telemetry/trace-context';

/**
 * DESIGN.md §4: a workflow start is written to the outbox in the transaction that creates its
 * business record; after commit the api starts it, and the worker's relay starts whatever the
 * api did not (activities/outbox-start.ts: starting is a Temporal call, above this floor).
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
