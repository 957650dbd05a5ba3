import { getExternalWorkflowHandle, isCancellation, SignalDefinition } from '@temporalio/workflow';

/** Signals another workflow; false when it has ended (or never existed), which for a test clock and its operations means nobody waits. */
export async function signalIfRunning<T extends unknown[]>(workflowId: string, signal: SignalDefinition<T>, ...args: T): Promise<boolean> {
  try {
    await getExternalWorkflowHandle(workflowId).signal(signal, ...args);
    return true;
  } catch (err) {
    if (isCancellation(err)) throw err;
    return false;
  }
}
