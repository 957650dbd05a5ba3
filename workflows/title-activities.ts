import { proxyActivities, proxyLocalActivities, RetryPolicy } from '@temporalio/workflow';
import type { createTitleActivities } from '../activities/titles';
import { READ_MODEL_RETRY } from './operation-activities';

type TitleActivities = ReturnType<typeof createTitleActivities>;

/**
 * A payer payment is applied while the api waits on the update: a few quick tries, then the
 * update fails and the caller retries with the same external_id (the write is keyed by it).
 */
export const PAYER_PAYMENT_RETRY: RetryPolicy = { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '2s', maximumAttempts: 5 };

/** Two proxies with their own policies; a proxy cannot be spread, so the methods are picked by name. */
export const titleActivities = () => {
  const tracking = proxyActivities<TitleActivities>({ startToCloseTimeout: '30s', retry: READ_MODEL_RETRY });
  const payments = proxyActivities<TitleActivities>({ startToCloseTimeout: '10s', retry: PAYER_PAYMENT_RETRY });
  return {
    titlesToTrack: tracking.titlesToTrack, openTitleTracking: tracking.openTitleTracking, markTitleOverdue: tracking.markTitleOverdue,
    applyPayerPayment: payments.applyPayerPayment,
  };
};

/** What the operation reads once at PAID for all its titles, as a local activity (docs/decisions.md). */
export const localTitleTracking = () =>
  proxyLocalActivities<TitleActivities>({ startToCloseTimeout: '30s', retry: READ_MODEL_RETRY }).titleTrackingOfOperation;
