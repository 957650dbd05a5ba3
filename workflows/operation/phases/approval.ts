import { condition, setHandler } from '@temporalio/workflow';
import { canMove } from '../../../domain/operation-lifecycle';
import { NOT_INDEPENDENT } from '../../../domain/four-eyes';
import { Approval, ApproveInput, approveUpdate, denyUpdate, DenyInput } from '../messages';
import { OperationRun, refuse } from '../operation-run';

/**
 * WAITING_APPROVAL: the backoffice's approve and deny move the state; the phase only waits. With
 * four-eyes (`approvalsRequired` 2) the first approval is recorded and the state stays; the
 * second, by another approver, moves it. The approval joins the state before its write is
 * awaited, so a concurrent approve is validated against it: the same person is refused, another
 * completes the pair.
 */
export function installApprovalHandlers(run: OperationRun): void {
  const decide = (decision: 'approve' | 'deny', step: () => Promise<void>) => run.activity.during({ kind: 'decision', decision }, async () => {
    await step();
    return run.state;
  });

  // The approval that does not move the state writes its audit row; the one that completes the pair leaves it to the move.
  const recordApproval = async (input: ApproveInput, audit?: ApproveInput['audit']): Promise<Approval> => {
    const approval = { ...input.approver!, approvedAt: run.now().toISOString() };
    run.state.approvals.push(approval);
    await run.ops.recordApproval({ operationId: run.input.operationId, ...approval, audit });
    return approval;
  };
  const approvedBy = (input: ApproveInput) => ({ decidedBy: input.decidedBy, note: input.note ?? null, audit: input.audit });

  setHandler(approveUpdate, async (input) => {
    if (run.state.approvalsRequired === 1) return decide('approve', () => run.moveTo('PRE_APPROVED', approvedBy(input)));
    if (run.state.approvals.length + 1 < run.state.approvalsRequired) {
      return run.activity.during({ kind: 'first approval', approver: input.approver!.userId }, async () => {
        const recorded = recordApproval(input, input.audit);
        // The state this approval produced: a second approver's, arriving during the write, moves the
        // operation on and answers that move itself (each update answers its own outcome).
        const produced = { ...run.state, approvals: [...run.state.approvals] };
        await recorded;
        return produced;
      });
    }
    return decide('approve', async () => {
      const approval = recordApproval(input);
      await run.moveTo('PRE_APPROVED', approvedBy(input));
      await approval;
    });
  }, {
    validator: (input: ApproveInput) => {
      if (run.activity.deciding || run.cancelRequested || !canMove(run.status, 'PRE_APPROVED')) refuse('operation_cannot_be_approved', `Operation is ${run.status}`);
      if (run.state.approvalsRequired === 1) return;
      if (!input.approver) refuse('operation_cannot_be_approved', 'Four-eyes approval needs the approver named');
      if (run.state.approvals.some((a) => a.userId === input.approver!.userId)) {
        refuse('approver_already_approved', 'You approved this operation already; a second approver must give the other approval');
      }
      if (run.state.approvals.some((a) => input.notIndependentOf?.includes(a.userId))) refuse(NOT_INDEPENDENT.code, NOT_INDEPENDENT.message, NOT_INDEPENDENT);
    },
  });

  setHandler(denyUpdate, ({ decidedBy, reason, audit }) => decide('deny', async () => {
    await run.ops.releaseOperation({ operationId: run.input.operationId, workflowId: run.workflowId, to: 'DENIED', actor: decidedBy, reason, audit, ...run.at() });
    run.setStatus('DENIED');
  }), {
    validator: (_input: DenyInput) => {
      if (run.activity.writingDecision || run.cancelRequested || !canMove(run.status, 'DENIED')) refuse('operation_cannot_be_denied', `Operation is ${run.status}`);
    },
  });
}

/** Resolves true once approved (or born so), false when denied or cancelled meanwhile (cancellation finished). */
export async function awaitApproval(run: OperationRun): Promise<boolean> {
  await condition(() => !run.activity.deciding && (run.status !== 'WAITING_APPROVAL' || run.cancelRequested !== null));
  if (run.status === 'DENIED') return false;
  if (run.cancelRequested) {
    await run.finishCancelled();
    return false;
  }
  return true;
}
