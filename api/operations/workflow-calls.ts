import { ServiceError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import type { UpdateDefinition } from '@temporalio/common';
import type { Knex } from 'knex';
import { AppError, Conflict, NotFound, ProviderFailed } from '../../domain/errors';
import type { TemporalHandle } from '../temporal-client';
import { startEnqueued } from '../workflow-outbox';

/** Refusal types a workflow's validators use, and how the api answers them. */
const REFUSALS: Record<string, (type: string) => AppError> = {
  esign_create_failed: (type) => new ProviderFailed(type),
  esign_add_signer_failed: (type) => new ProviderFailed(type),
  esign_update_signer_failed: (type) => new ProviderFailed(type),
  esign_template_inventory_failed: (type) => new ProviderFailed(type),
  esign_unavailable: (type) => new ProviderFailed(type),
  title_not_found: (type) => new NotFound(type),
};

/** gRPC NOT_FOUND: the server's answer both for an unknown workflow and for one that already completed. */
const GRPC_NOT_FOUND = 5;

function isMissing(err: unknown): boolean {
  if (err instanceof WorkflowNotFoundError) return true;
  return err instanceof ServiceError && (err.cause as { code?: number } | undefined)?.code === GRPC_NOT_FOUND;
}

function refusalOf(err: unknown): AppError | null {
  if (!(err instanceof WorkflowUpdateFailedError)) return null;
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure) || !cause.type) return null;
  return (REFUSALS[cause.type] ?? ((type: string) => new Conflict(type)))(cause.type);
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
  const handle = deps.temporal.client.workflow.getHandle(workflowId);
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await handle.executeUpdate(update, { args: [arg] });
    } catch (err) {
      const refusal = refusalOf(err);
      if (refusal) throw refusal;
      if (!isMissing(err)) throw err;
      if (attempt > 0) throw new Conflict(whenClosed);
      await startEnqueued(deps.db, deps.temporal.client, deps.temporal.taskQueue, workflowId);
    }
  }
}

/** Signals are hints (a provider callback): a missing workflow is simply not told. */
export async function signalWorkflow(deps: { temporal: TemporalHandle }, workflowId: string, signal: string): Promise<boolean> {
  try {
    await deps.temporal.client.workflow.getHandle(workflowId).signal(signal);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
