// The workflow bundle: every workflow the worker runs is exported from here.
export { webhookDelivery } from './webhook-delivery';
export { webhookRecovery } from './webhook-recovery';
export { operationWorkflow } from './operation/workflow';
export { testClockWorkflow } from './test-clock';
export { collectionSweep } from './collection-sweep';
export { auditCheckpointRun } from './audit-checkpoint';
export { ledgerAccrual } from './ledger-accrual';
export { ledgerReconciliation } from './ledger-reconciliation';
export { titleNfeRecheck } from './title-nfe-recheck';
export { registrationReconciliation } from './registration-reconciliation';
