/** Workflow ids, one helper each: the api, the worker, the outbox and the tests all address workflows through these. */
export const operationWorkflowId = (operationId: string): string => `operation-${operationId}`;
export const deliveryWorkflowId = (eventId: string, subscriptionId: string): string => `webhook-${eventId}-${subscriptionId}`;
export const testClockWorkflowId = (clockId: string): string => `test-clock-${clockId}`;

/** The task queue workers poll unless TEMPORAL_TASK_QUEUE names another. */
export const DEFAULT_TASK_QUEUE = 'operations';

/**
 * The hourly collection sweep's Schedule for the workers of `taskQueue`. A Schedule is per namespace
 * and its runs go to one task queue, so deployments sharing a namespace on different task queues
 * each need their own: with one id, the first worker to start would sweep for its deployment only.
 * The default queue keeps the released id, `pix-collection-sweep`.
 */
export const collectionSweepScheduleId = (taskQueue: string): string =>
  (taskQueue === DEFAULT_TASK_QUEUE ? 'pix-collection-sweep' : `pix-collection-sweep-${taskQueue}`);

/** The hourly audit checkpoint's Schedule for the workers of `taskQueue`, per queue like the sweep's. */
export const auditCheckpointScheduleId = (taskQueue: string): string => `audit-checkpoint-${taskQueue}`;
/** The daily ledger accrual's Schedule for the workers of `taskQueue`, one per queue like the sweep's. */
/** The daily re-check of open titles' NF-e for the workers of `taskQueue`, one per queue like the sweep's. */
export const titleNfeRecheckScheduleId = (taskQueue: string): string =>
  (taskQueue === DEFAULT_TASK_QUEUE ? 'title-nfe-recheck' : `title-nfe-recheck-${taskQueue}`);
export const registrationReconciliationScheduleId = (taskQueue: string): string =>
  (taskQueue === DEFAULT_TASK_QUEUE ? 'registration-reconciliation' : `registration-reconciliation-${taskQueue}`);
export const ledgerAccrualScheduleId = (taskQueue: string): string =>
  (taskQueue === DEFAULT_TASK_QUEUE ? 'ledger-accrual' : `ledger-accrual-${taskQueue}`);

export const ledgerReconciliationScheduleId = (taskQueue: string): string =>
  (taskQueue === DEFAULT_TASK_QUEUE ? 'ledger-reconciliation' : `ledger-reconciliation-${taskQueue}`);
