import { proxyActivities, RetryPolicy } from '@temporalio/workflow';
import type { createCollectionActivities } from '../activities/collection/charges';

/**
 * Issuing charges rides out a PSP blip or restart for about five minutes; after that the titles are
 * tracked without charges (their payments still arrive by the other channels) and the operator
 * sees the activity's failure.
 */
export const PIX_COLLECTION_RETRY: RetryPolicy = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 };

/** One PSP call per title plus a row insert each: a minute covers an operation of many titles. */
export const collectionActivities = () =>
  proxyActivities<ReturnType<typeof createCollectionActivities>>({ startToCloseTimeout: '2m', retry: PIX_COLLECTION_RETRY });
