import { Client, WorkflowExecutionAlreadyStartedError, WorkflowStartOptions } from '@temporalio/client';

/**
 * Starts a workflow at most once per workflow id, however often it is asked (the outbox relay
 * and the api racing, a webhook dispatch run again): a running one is used as it is, and one that
 * already ran to its end is not started again. Either way the workflow exists, which is all the
 * callers promise.
 */
export async function startOnce(client: Client, workflowType: string, options: WorkflowStartOptions): Promise<void> {
  try {
    await client.workflow.start(workflowType, { ...options, workflowIdConflictPolicy: 'USE_EXISTING', workflowIdReusePolicy: 'REJECT_DUPLICATE' });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
