import {
  allHandlersFinished, ApplicationFailure, condition, continueAsNew, proxyLocalActivities, setHandler, sleep, workflowInfo,
} from '@temporalio/workflow';
import { signalIfRunning } from './signal-external';
import type { createTestClockActivities } from '../activities/test-clocks';
import { advanceRefusal } from '../domain/test-clocks';
import { READ_MODEL_RETRY } from './operation/proxies';
import {
  advanceClockUpdate, clockAdvancedSignal, clockDeletedSignal, deleteClockSignal, operationAttachedSignal, operationCaughtUpSignal,
  TestClockState, testClockStateQuery, TestClockWorkflowInput,
} from './test-clock-messages';

/**
 * A sandbox test clock: it holds the operations created on it, fans each advance out
 * to them and is ready again once every one has answered that it caught up (or has ended). It
 * deletes itself 30 days after creation; deleted, it tells its operations, whose tracking ends.
 */
export async function testClockWorkflow(input: TestClockWorkflowInput): Promise<void> {
  const clocks = proxyLocalActivities<ReturnType<typeof createTestClockActivities>>({ startToCloseTimeout: '30s', retry: READ_MODEL_RETRY });
  const operations = new Set(input.operations ?? []);
  /** Operations to tell the clock's time: all of them on an advance, one that just joined. */
  const toTell = new Set<string>();
  /** Operations that have not answered the advance running. */
  const waiting = new Set<string>();
  let frozenTime = input.frozenTime;
  let advancing = false;
  /** The advance running has been written (status advancing): its end may be written over it. */
  let recorded = false;
  let deleted = false;
  const state = (): TestClockState => ({ frozenTime, advancing, operations: operations.size, waitingFor: waiting.size });

  setHandler(testClockStateQuery, state);
  setHandler(operationAttachedSignal, ({ workflowId }) => {
    operations.add(workflowId);
    toTell.add(workflowId);
    if (advancing) waiting.add(workflowId);
  });
  setHandler(operationCaughtUpSignal, ({ workflowId, frozenTime: reached }) => {
    if (Date.parse(reached) >= Date.parse(frozenTime)) waiting.delete(workflowId);
  });
  setHandler(deleteClockSignal, () => { deleted = true; });
  setHandler(advanceClockUpdate, async ({ frozenTime: to, audit }) => {
    advancing = true;
    frozenTime = to;
    await clocks.recordClockAdvancing({ clockId: input.clockId, frozenTime: to, audit });
    // The row says advancing before any operation moves; only now may the advance end.
    for (const id of operations) {
      waiting.add(id);
      toTell.add(id);
    }
    recorded = true;
    return state();
  }, {
    validator: ({ frozenTime: to }) => {
      if (deleted) throw ApplicationFailure.nonRetryable('The test clock was deleted', 'test_clock_not_found');
      if (advancing) throw ApplicationFailure.nonRetryable('An advance of this clock is still running', 'test_clock_advancing');
      const refusal = advanceRefusal(frozenTime, to);
      if (refusal) throw ApplicationFailure.nonRetryable(refusal.message, refusal.code, refusal);
    },
  });
  const expiry = Date.parse(input.deletesAfter) - Date.now();
  void sleep(Math.max(expiry, 1)).then(async () => {
    await clocks.expireClock({ clockId: input.clockId });
    deleted = true;
  });

  for (;;) {
    await condition(() => deleted || toTell.size > 0 || (recorded && waiting.size === 0) || (!advancing && workflowInfo().continueAsNewSuggested));
    if (deleted) break;
    if (toTell.size > 0) {
      const told = [...toTell];
      toTell.clear();
      await Promise.all(told.map(async (id) => {
        if (!(await signalIfRunning(id, clockAdvancedSignal, { frozenTime }))) {
          operations.delete(id);
          waiting.delete(id);
        }
      }));
    } else if (recorded) {
      await clocks.recordClockReady({ clockId: input.clockId, frozenTime });
      advancing = false;
      recorded = false;
    } else {
      await condition(allHandlersFinished);
      if (!advancing && toTell.size === 0) await continueAsNew<typeof testClockWorkflow>({ ...input, frozenTime, operations: [...operations] });
    }
  }
  await Promise.all([...operations].map((id) => signalIfRunning(id, clockDeletedSignal)));
}
