import { ServiceError } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { UpdateDefinition } from '@temporalio/common';
import type { Knex } from 'knex';
import { Conflict, NotFound } from '../../domain/errors';
import { operationWorkflowId } from '../../domain/workflow-ids';
import { OperationsRepository } from '../../db/repositories/operations';
import { workflowRefusal } from './workflow-refusals';
import type { TemporalHandle } from './client';
import { startEnqueued } from '../../activities/outbox-start';

/** gRPC NOT_FOUND: the server's answer both for an unknown workflow and for one that already completed. */
const GRPC_NOT_FOUND = 5;
/**
 * How long a route waits on Temporal for an update (`TEMPORAL_UPDATE_DEADLINE_MS`, 20 s) or a
 * signal before answering 503 `workflow_unavailable` (a server restarting, or no worker to run the
 * update): a caller gets an answer it can retry instead of a request that hangs. Updates are keyed
 * (payments by `external_id`) or guarded by state, so a retry after an update that did land is
 * refused or replayed. The update's 20 s are twice Temporal's 10 s workflow task timeout: a worker
 * that dies holding the workflow's task delays the update by that timeout, and then the task must
 * be matched to another worker and run again, which fault runs saw take up to 8 s on a machine busy
 * recovering (15 s was not enough). Only tests that wait for the refusal itself set it shorter.
 */
const SIGNAL_DEADLINE_MS = 2_000;

/** Runs `update` on the workflow within the update deadline (above); its failures are the caller's to read. */
export function updateWorkflow<Ret, Arg>(temporal: TemporalHandle, workflowId: string, update: UpdateDefinition<Ret, [Arg]>, arg: Arg): Promise<Ret> {
  const handle = temporal.client.workflow.getHandle(workflowId);
  return temporal.connection.withDeadline(Date.now() + temporal.updateDeadlineMs, () => handle.executeUpdate(update, { args: [arg] }));
}

function isMissing(err: unknown): boolean {
  if (err instanceof WorkflowNotFoundError) return true;
  return err instanceof ServiceError && (err.cause as { code?: number } | undefined)?.code === GRPC_NOT_FOUND;
}

/**
 * Runs an update on a business workflow and turns its refusal into our error classes: a
 * validator's `ApplicationFailure` type is the contract's code. A workflow still waiting in the
 * outbox (the relay has not run yet) is started first, so the caller never sees the gap; one
 * that has already ended refuses with `whenClosed`.
 */
export async function executeWorkflowUpdate<Ret, Arg>(
  deps: { db: Knex; temporal: TemporalHandle },
  workflowId: string,
  whenClosed: string,
  update: UpdateDefinition<Ret, [Arg]>,
  arg: Arg,
): Promise<Ret> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await updateWorkflow(deps.temporal, workflowId, update, arg);
    } catch (err) {
      const refusal = workflowRefusal(err, 'workflow_unavailable');
      if (refusal) throw refusal;
      if (!isMissing(err)) throw err;
      if (attempt > 0) throw new Conflict(whenClosed);
      await startEnqueued(deps.db, deps.temporal.client, deps.temporal.taskQueue, workflowId);
    }
  }
}

/** The operation must be the caller's: another originator's id is 404 like a missing one. */
export async function requireOperation(db: Knex, originatorId: string, id: string, notFoundCode: string): Promise<string> {
  const op = await new OperationsRepository(db, originatorId).byId(id);
  if (!op) throw new NotFound(notFoundCode);
  return operationWorkflowId(op.id);
}

/** Signals are hints (a provider callback): a missing workflow is simply not told. */
export async function signalWorkflow(deps: { temporal: TemporalHandle }, workflowId: string, signal: string): Promise<boolean> {
  try {
    const handle = deps.temporal.client.workflow.getHandle(workflowId);
    await deps.temporal.connection.withDeadline(Date.now() + SIGNAL_DEADLINE_MS, () => handle.signal(signal));
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
