// The workflow bundle: every workflow the worker runs is exported from here.
export { webhookDelivery } from './webhook-delivery';
export { operationWorkflow } from './operation';
