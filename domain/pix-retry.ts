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

/**
 * Each PIX activity: retried as long as it takes. What such an activity throws is an uncertain call
 * (the provider unreachable, failing, or an answer we could not read), safe to repeat under the same
 * key; every refusal comes back as a value (`PIX_REJECTED`, `PIX_PAYMENT_NOT_FOUND`,
 * `SETTLEMENT_AMOUNT_MISMATCH`), which no retry policy sees, so none is repeated.
 */
export const PIX_CALL_RETRY: RetryPolicy = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' };

/** While the provider holds the payment PENDING, it is asked again this often unless its callback comes first. */
export const PIX_SETTLEMENT_POLL_MS = 15_000;

/** Why an attempt failed when the provider gave no reason of its own. */
export const PIX_REJECTED = 'pix_rejected';
/** Why an attempt failed when the provider knows the payment under neither its id nor our key: nothing was paid. */
export const PIX_PAYMENT_NOT_FOUND = 'pix_payment_not_found';
/** Why an attempt failed when the provider settled an amount other than the one owed: a human looks before it is PAID. */
export const SETTLEMENT_AMOUNT_MISMATCH = 'settlement_amount_mismatch';
/** Why an attempt failed when its activity gave up without a typed refusal. */
export const PIX_UNAVAILABLE = 'pix_unavailable';

/** The human retry: the state it is accepted in, the state it leads to, and the refusal code otherwise. */
export const PIX_MANUAL_RETRY = PENDING_REQUESTS.retryDisbursement;
