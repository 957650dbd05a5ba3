import { proxyActivities, proxyLocalActivities, RetryPolicy } from '@temporalio/workflow';
import type { createOperationActivities } from '../../activities/operations';
import type { createContractActivities } from '../../activities/contract';
import type { createDisbursementActivities } from '../../activities/disbursement';
import type { createNfeCheckActivities } from '../../activities/nfe-check';
import type { createRegistrationActivities } from '../../activities/registration';
import { PIX_CALL_RETRY } from '../../domain/pix-retry';

/** Read-model writes: Postgres blips are retried for as long as it takes; each write is idempotent. */
export const READ_MODEL_RETRY: RetryPolicy = { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '30s' };
/**
 * The automatic dispatch rides out a provider outage or restart: retries 1 s doubling to 15 s, about
 * two minutes of waiting in all (the contract tells integrators dispatch may take that long), then
 * CONTRACT_ERROR and a human re-dispatch. A refusal the provider answers (4xx) is not retried.
 */
export const CONTRACT_DISPATCH_RETRY: RetryPolicy = {
  initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '15s', maximumAttempts: 12,
  nonRetryableErrorTypes: ['operation_not_found'],
};
/** A re-dispatch asked for by send-for-signature: its caller waits for the answer, so a few quick tries, then 502. */
export const MANUAL_DISPATCH_RETRY: RetryPolicy = { ...CONTRACT_DISPATCH_RETRY, maximumInterval: '10s', maximumAttempts: 3 };
/** Reading signers is polling already: fail fast and let the next poll try again. */
export const SIGNATURE_CHECK_RETRY: RetryPolicy = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' };

/**
 * Read-model writes as local activities (docs/decisions.md): short idempotent Postgres
 * transactions run by the worker inside the workflow task that asks for them, with no task-queue
 * round trip and one marker event instead of three events and a second workflow task. Same
 * timeout and retry policy; a retry that outlasts the workflow task waits on a timer.
 */
export const localOperationActivities = () =>
  proxyLocalActivities<ReturnType<typeof createOperationActivities>>({ startToCloseTimeout: '30s', retry: READ_MODEL_RETRY });

/** Proxies with their own policies; a proxy cannot be spread, so the methods are picked by name. */
export const contractActivities = () => {
  type Contract = ReturnType<typeof createContractActivities>;
  const dispatch = proxyActivities<Contract>({ startToCloseTimeout: '2m', retry: CONTRACT_DISPATCH_RETRY });
  const redispatch = proxyActivities<Contract>({ startToCloseTimeout: '2m', retry: MANUAL_DISPATCH_RETRY });
  const reads = proxyActivities<Contract>({ startToCloseTimeout: '30s', retry: SIGNATURE_CHECK_RETRY });
  return {
    dispatchContract: dispatch.dispatchContract, redispatchContract: redispatch.dispatchContract,
    checkSignatures: reads.checkSignatures, voidContract: reads.voidContract,
  };
};

/**
 * Each PIX activity makes one provider call (PROVIDER_TIMEOUT_MS, 10 s by default) and a few row
 * writes; the timeout is also how long a worker that died mid-call goes unnoticed before the retry.
 */
export const disbursementActivities = () =>
  proxyActivities<ReturnType<typeof createDisbursementActivities>>({ startToCloseTimeout: '30s', retry: PIX_CALL_RETRY });

/**
 * Reconciliation reads two rows and moves the read model to PAID: Postgres only, so local and
 * retried like the other read-model writes, not like a provider call. A settlement that does not
 * match is its answer (`SETTLEMENT_AMOUNT_MISMATCH`), never a failure to retry.
 */
export const localReconciliation = () =>
  proxyLocalActivities<ReturnType<typeof createDisbursementActivities>>({ startToCloseTimeout: '1m', retry: READ_MODEL_RETRY }).reconcileAndMarkPaid;

/**
 * The checks before the PIX: while SEFAZ gives no verdict the operation waits, 2 s doubling to
 * 5 min, with no deadline (it never pays unchecked); an answer, passed or refused, ends the wait.
 */
export const BACKING_CHECK_RETRY: RetryPolicy = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '5m' };

export const backingCheckActivities = () =>
  proxyActivities<ReturnType<typeof createNfeCheckActivities>>({ startToCloseTimeout: '2m', retry: BACKING_CHECK_RETRY });

/** The escriturador's acts before the PIX (and their cancellation): waited out like SEFAZ, never given up on. */
export const registrationActivities = () =>
  proxyActivities<ReturnType<typeof createRegistrationActivities>>({ startToCloseTimeout: '2m', retry: BACKING_CHECK_RETRY });

/** Informing a payment: a few minutes of tries, then left to the reconciliation, so title tracking is never held by the escriturador. */
export const PAYMENT_INFORM_RETRY: RetryPolicy = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 8 };

export const paymentInformActivities = () =>
  proxyActivities<ReturnType<typeof createRegistrationActivities>>({ startToCloseTimeout: '1m', retry: PAYMENT_INFORM_RETRY });
