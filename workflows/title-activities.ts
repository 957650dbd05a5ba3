import { proxyLocalActivities, RetryPolicy } from '@temporalio/workflow';
import type { createTitleActivities } from '../activities/titles';
import { READ_MODEL_RETRY } from './operation/proxies';

type TitleActivities = ReturnType<typeof createTitleActivities>;

/**
 * A payer payment is applied while the api waits on the update: a few quick tries, then the
 * update fails and the caller retries with the same external_id (the write is keyed by it).
 */
export const PAYER_PAYMENT_RETRY: RetryPolicy = { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '2s', maximumAttempts: 5 };

/**
 * Title writes are short idempotent Postgres transactions, run as local activities like the other
 * read-model writes (docs/decisions.md): the title read at PAID and the overdue move retry for as
 * long as it takes; a payment retries briefly, for its caller is waiting.
 */
export const titleActivities = () => {
  const tracking = proxyLocalActivities<TitleActivities>({ startToCloseTimeout: '30s', retry: READ_MODEL_RETRY });
  const payments = proxyLocalActivities<TitleActivities>({ startToCloseTimeout: '10s', retry: PAYER_PAYMENT_RETRY });
  return {
    titleTrackingOfOperation: tracking.titleTrackingOfOperation, markTitleOverdue: tracking.markTitleOverdue,
    applyPayerPayment: payments.applyPayerPayment,
  };
};
