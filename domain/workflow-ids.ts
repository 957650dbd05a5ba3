/** Workflow ids, one helper each: the api, the worker, the outbox and the tests all address workflows through these. */
export const operationWorkflowId = (operationId: string): string => `operation-${operationId}`;
export const deliveryWorkflowId = (eventId: string, subscriptionId: string): string => `webhook-${eventId}-${subscriptionId}`;
export const testClockWorkflowId = (clockId: string): string => `test-clock-${clockId}`;
