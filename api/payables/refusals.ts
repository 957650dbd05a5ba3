import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { AppError, Conflict, RuleViolation, Unavailable } from '../../domain/errors';
import type { Refusal } from '../../workflows/title-rules';

/** Refusals that break a business rule (422); every other refusal is a state conflict (409). */
const RULE_VIOLATIONS = new Set(['payment_exceeds_outstanding_balance']);

export function refusalError(refusal: Refusal): AppError {
  return RULE_VIOLATIONS.has(refusal.code) ? new RuleViolation(refusal.detail) : new Conflict(refusal.detail);
}

/**
 * A title workflow's refusal as our error: the non-retryable failure's type is the code and its
 * first detail the contract's `detail`, whether the validator refused or an activity's guard did.
 * An activity that kept failing is a 503: nothing was applied, and a retry with the same
 * external_id is safe. Anything else is not a refusal (null).
 */
export function workflowRefusal(err: unknown): AppError | null {
  if (!(err instanceof WorkflowUpdateFailedError)) return null;
  const failure = err.cause instanceof ActivityFailure ? err.cause.cause : err.cause;
  if (failure instanceof ApplicationFailure && failure.nonRetryable && failure.type) {
    return refusalError({ code: failure.type, detail: (failure.details?.[0] as Refusal['detail'] | undefined) ?? failure.type });
  }
  return err.cause instanceof ActivityFailure ? new Unavailable('title_payment_unavailable') : null;
}
