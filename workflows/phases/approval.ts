import { condition, setHandler } from '@temporalio/workflow';
import { canMove } from '../../domain/operation-lifecycle';
import { approveUpdate, ApproveInput, denyUpdate, DenyInput } from '../operation-messages';
import { OperationRun, refuse } from '../operation-run';

/** WAITING_APPROVAL: the backoffice's approve and deny move the state; the phase only waits. */
export function installApprovalHandlers(run: OperationRun): void {
  const decide = async (step: () => Promise<void>) => {
    run.busy = true;
    try {
      await step();
      return run.state;
    } finally {
      run.busy = false;
    }
  };

  setHandler(approveUpdate, ({ decidedBy, note }) => decide(() => run.moveTo('PRE_APPROVED', { decidedBy, note: note ?? null })), {
    validator: (_input: ApproveInput) => {
      if (run.busy || run.cancelRequested || !canMove(run.status, 'PRE_APPROVED')) refuse('operation_cannot_be_approved', `Operation is ${run.status}`);
    },
  });

  setHandler(denyUpdate, ({ decidedBy, reason }) => decide(async () => {
    await run.ops.releaseOperation({ operationId: run.input.operationId, workflowId: run.workflowId, to: 'DENIED', actor: decidedBy, reason });
    run.setStatus('DENIED');
  }), {
    validator: (_input: DenyInput) => {
      if (run.busy || run.cancelRequested || !canMove(run.status, 'DENIED')) refuse('operation_cannot_be_denied', `Operation is ${run.status}`);
    },
  });
}

/** Resolves true once approved (or born so), false when denied or cancelled meanwhile (cancellation finished). */
export async function awaitApproval(run: OperationRun): Promise<boolean> {
  await condition(() => !run.busy && (run.status !== 'WAITING_APPROVAL' || run.cancelRequested !== null));
  if (run.status === 'DENIED') return false;
  if (run.cancelRequested) {
    await run.finishCancelled();
    return false;
  }
  return true;
}
