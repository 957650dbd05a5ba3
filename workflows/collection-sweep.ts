import { proxyActivities } from '@temporalio/workflow';
import type { createCollectionSweepActivities } from '../activities/collection/sweep-trigger';

const { triggerCollectionSweep } = proxyActivities<ReturnType<typeof createCollectionSweepActivities>>({
  startToCloseTimeout: '2m',
  // The next hour's run sweeps the same window again: a few tries are enough.
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 5 },
});

/** One run of the hourly collection sweep: how many missed payments it applied. */
export async function collectionSweep(): Promise<number> {
  return triggerCollectionSweep();
}
