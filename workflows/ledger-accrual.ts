import { proxyActivities } from '@temporalio/workflow';
import type { createLedgerAccrualActivities } from '../activities/ledger-accrual';

const { postDailyAccruals } = proxyActivities<ReturnType<typeof createLedgerAccrualActivities>>({
  startToCloseTimeout: '10m',
  // Each title's posting is keyed by its date: a retry finishes what the failed try left.
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '5m', maximumAttempts: 10 },
});

/** One run of the daily accrual (the `ledger-accrual` Temporal Schedule): how many titles earned something. */
export async function ledgerAccrual(): Promise<number> {
  return postDailyAccruals();
}
