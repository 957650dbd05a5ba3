import { condition, defineSignal, setHandler } from '@temporalio/workflow';

/** Holds the workflow task that delivers it for the given milliseconds of real time. */
export const holdTaskSignal = defineSignal<[number]>('holdTask');

/**
 * The test server's lost workflow task, made on purpose (./wedged-task.ts): a condition with a
 * timeout, whose timer fires while the signal's handler holds the task in real time, so that the
 * task's completion cancels a timer the server has already fired. The workflow then waits for good
 * (a test terminates it): a completion beside the cancel would be refused for the fired timer
 * instead, and the task failed and tried again, as the real server does.
 */
export async function wedgedTaskWorkflow(timeoutMs: number): Promise<void> {
  let signalled = false;
  setHandler(holdTaskSignal, (ms) => {
    // A blocked thread, not a timer: the workflow's own clock stands still within a task.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    signalled = true;
  });
  await condition(() => signalled, timeoutMs);
  await condition(() => false);
}
