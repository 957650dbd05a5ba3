import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { AppError, Conflict, Detail, NotFound, ProviderFailed, RuleViolation, Unavailable } from '../../domain/errors';

/** Refusal codes that are not state conflicts (409, the default). */
const STATUS_BY_CODE: Record<string, number> = {
  payment_exceeds_outstanding_balance: 422,
  title_not_found: 404,
  esign_create_failed: 502,
  esign_add_signer_failed: 502,
  esign_update_signer_failed: 502,
  esign_template_inventory_failed: 502,
  esign_unavailable: 502,
  test_clock_time_not_forward: 422,
  test_clock_advance_too_far: 422,
  test_clock_not_found: 404,
};

/** A workflow's business refusal as our error: its code decides the status, its detail is the body. */
export function refusalError(code: string, detail: Detail = code): AppError {
  switch (STATUS_BY_CODE[code] ?? 409) {
    case 422: return new RuleViolation(detail);
    case 404: return new NotFound(code);
    case 502: return new ProviderFailed(code);
    default: return new Conflict(detail);
  }
}

/**
 * A failed update as our error: the non-retryable failure's type is the contract's code and its
 * first detail the contract's `detail`, whether a validator refused or an activity's guard did
 * (the workflow refuses only that way). An activity that kept failing, or a retryable failure
 * from the server (`UnprocessedUpdate`: the worker never took the update in), is
 * `unavailableCode` (503): nothing was applied, a retry is safe. Anything else is not a refusal (null).
 */
export function workflowRefusal(err: unknown, unavailableCode: string): AppError | null {
  if (!(err instanceof WorkflowUpdateFailedError)) return null;
  const failure = err.cause instanceof ActivityFailure ? err.cause.cause : err.cause;
  if (failure instanceof ApplicationFailure && failure.type && failure.nonRetryable) {
    return refusalError(failure.type, (failure.details?.[0] as Detail | undefined) ?? failure.type);
  }
  return err.cause instanceof ActivityFailure || err.cause instanceof ApplicationFailure ? new Unavailable(unavailableCode) : null;
}
