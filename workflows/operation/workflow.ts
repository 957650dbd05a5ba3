import { allHandlersFinished, condition, setHandler } from '@temporalio/workflow';
import { cancelUpdate, CancelInput, OperationWorkflow, runActivityQuery, stateQuery } from './messages';
import { OperationRun } from './operation-run';
import { awaitApproval, installApprovalHandlers } from './phases/approval';
import { ContractPhase } from './phases/contract';
import { DisbursementPhase } from './phases/disbursement';
import { TitleTracking } from './phases/titles';

export type { OperationState, OperationWorkflowInput } from './messages';

/**
 * One operation from creation until its last title closes (DESIGN.md §5), phase by phase:
 * approval, contract and signatures, disbursement, titles. The workflow decides; activities
 * change Postgres (idempotently, with the event row) and talk to the providers. A run resumed by
 * continue-as-new starts at the phase it left.
 */
export const operationWorkflow: OperationWorkflow = async (input) => {
  const run = new OperationRun(input);
  const contract = new ContractPhase(run);
  const disbursement = new DisbursementPhase(run);
  const titles = new TitleTracking(run);
  // Handlers first, before any await, or an early update would find none.
  setHandler(stateQuery, () => run.state);
  setHandler(runActivityQuery, () => run.activity.toString());
  // Honoured by the phase at rest (CANCELLED) or refused by the move that wins (SIGNED): see OperationRun.setStatus.
  setHandler(cancelUpdate, ({ requestedBy, reason, audit }) => {
    const answer = run.request('cancel', { requestedBy, reason: reason ?? null, audit });
    contract.stopDispatch();
    return answer;
  }, { validator: (_input: CancelInput) => run.refuseUnlessAccepted('cancel') });
  installApprovalHandlers(run);
  contract.install();
  disbursement.install();
  titles.install();

  if (run.clock) {
    run.clock.install();
    // An advance is answered when nothing falls due up to the clock's time and no move is being written.
    void run.clock.answerAdvances(() => !run.activity.movingReadModel && (run.status === 'PAID' ? titles.restsAtClockTime() : disbursement.restsAtClockTime()));
    if (!input.resumed) await run.clock.attach();
  }

  if (!input.resumed) await run.ops.recordOperationCreated({ operationId: input.operationId, workflowId: run.workflowId });
  run.setStatus(run.status);

  const paid = run.status === 'PAID'
    || (await awaitApproval(run) && await contract.untilSigned() && await disbursement.untilPaid());
  if (paid && await titles.untilClosed()) await run.moveTo('SETTLED');
  await condition(allHandlersFinished);
  await run.clock?.settled();
  return run.state;
};
