import type { RetryPolicy } from '@temporalio/common';
import { PENDING_REQUESTS } from './operation-lifecycle';

/*
 * The PIX retry policy, stated once. Two kinds of retry, never mixed up:
 * - automatic, of one call: every PIX order carries an idempotency key derived from the operation
 *   and the attempt (`disbursementKey`), so retrying an uncertain call can never pay twice;
 * - by a human, of the whole payment: an attempt that ends otherwise than settled is never retried
 *   by itself (the refusal may be the account, and paying it again is a decision), so the operation
 *   waits in DISBURSEMENT_FAILED until staff ask for a new attempt (a new key) or cancel it.
 */

/** Each PIX activity: retried as long as it takes, except a settlement that does not match the amount owed. */
export const PIX_CALL_RETRY: RetryPolicy = {
  initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', nonRetryableErrorTypes: ['disbursement_amount_mismatch'],
};

/** While the provider holds the payment PENDING, it is asked again this often unless its callback comes first. */
export const PIX_SETTLEMENT_POLL_MS = 15_000;

/** Why an attempt failed when the provider gave no reason of its own. */
export const PIX_REJECTED = 'pix_rejected';
/** Why an attempt failed when its activity gave up without a typed refusal. */
export const PIX_UNAVAILABLE = 'pix_unavailable';

/** The human retry: the state it is accepted in, the state it leads to, and the refusal code otherwise. */
export const PIX_MANUAL_RETRY = PENDING_REQUESTS.retryDisbursement;
