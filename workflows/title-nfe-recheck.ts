import { proxyActivities } from '@temporalio/workflow';
import type { createTitleNfeRecheckActivities } from '../activities/title-nfe-recheck';

const { recheckOpenTitleNfes } = proxyActivities<ReturnType<typeof createTitleNfeRecheckActivities>>({
  startToCloseTimeout: '30m',
  // A title is disputed once whatever the tries: a retry asks again only what is still undisputed.
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '10m', maximumAttempts: 5 },
});

/** One run of the daily re-check of open titles' NF-e (the `title-nfe-recheck` Temporal Schedule): how many titles it put in dispute. */
export async function titleNfeRecheck(): Promise<number> {
  return recheckOpenTitleNfes();
}
