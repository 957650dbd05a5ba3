import { proxyActivities } from '@temporalio/workflow';
import type { createLedgerReconciliationActivities } from '../activities/ledger-reconciliation';

const { reconcileLedger } = proxyActivities<ReturnType<typeof createLedgerReconciliationActivities>>({
  startToCloseTimeout: '10m',
  // A PSP down is waited out; a retry after a stored run stores another, and the latest counts.
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '30m', maximumAttempts: 12 },
});

/** One run of the daily reconciliation (the `ledger-reconciliation` Temporal Schedule): how many mismatches it found. */
export async function ledgerReconciliation(): Promise<number> {
  return (await reconcileLedger()).mismatches;
}
