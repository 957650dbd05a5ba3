import { proxyActivities } from '@temporalio/workflow';
import type { createRegistrationReconciliationActivities } from '../activities/registration-reconciliation';

const { reconcileRegistrations } = proxyActivities<ReturnType<typeof createRegistrationReconciliationActivities>>({
  startToCloseTimeout: '30m',
  // An escriturador down is waited out; a retry reports nothing twice (one event per title, kind and day).
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '30m', maximumAttempts: 12 },
});

/** One run of the daily registration reconciliation (the `registration-reconciliation` Temporal Schedule): how many differences it found. */
export async function registrationReconciliation(): Promise<number> {
  return (await reconcileRegistrations()).mismatches.length;
}
