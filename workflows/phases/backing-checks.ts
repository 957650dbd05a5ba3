import { patched } from '@temporalio/workflow';
import type { OperationRun } from '../operation-run';
import { RECEIVABLE_ENCUMBERED } from '../../domain/escriturador/registration';

/** Operations whose histories were recorded before the check existed replay without it. */
export const NFE_CHECK_PATCH = 'nfe-check-before-pix';

/** Operations whose histories were recorded before the registration existed replay without it. */
export const REGISTRATION_PATCH = 'registration-before-pix';

/** Who the read model names as the actor of a cancellation no one asked for. */
export const BACKING_CHECK_ACTOR = 'system:backing-check';

/**
 * The checks of what backs the operation, the last thing before its PIX is ordered: each NF-e at
 * SEFAZ (an NF-e may be cancelled within 24 h of its authorization, and a payer may change its
 * word after creation), then our acquisition of each duplicata at its escriturador. A refusal cancels the operation with its reason and moves no money; no
 * verdict keeps the activity retrying, so the operation waits in SIGNED.
 * Resolves true when the PIX may go, false once the operation is cancelled.
 */
export async function backingStillHolds(run: OperationRun): Promise<boolean> {
  if (!patched(NFE_CHECK_PATCH)) return true;
  const { refusal } = await run.backing.checkNfesBeforePayout({ operationId: run.input.operationId });
  if (!refusal) return actsRegistered(run);
  const reason = `Receivable ${refusal.externalId}: NF-e ${refusal.key} failed its check at SEFAZ (cStat ${refusal.cStat}: ${refusal.xMotivo})`;
  run.state.lastError = refusal.reason;
  await run.finishCancelled({ requestedBy: BACKING_CHECK_ACTOR, reason, cancellationReason: refusal.reason });
  return false;
}

/**
 * After the NF-e check: the transfer of every title's duplicata recorded at the escriturador (the
 * originator's settings say where and to whom). No PIX leaves until every act is registered; the
 * escriturador unreachable keeps the activity retrying (SIGNED); a refusal (the assignor no longer
 * holds a duplicata) cancels the operation, whose cancellation cancels our other acts.
 */
async function actsRegistered(run: OperationRun): Promise<boolean> {
  if (!patched(REGISTRATION_PATCH)) return true;
  const { refusal } = await run.registrar.registerOperationActs({ operationId: run.input.operationId });
  if (!refusal) return true;
  const reason = `Receivable ${refusal.externalId}: the escriturador refused our acquisition of its duplicata (NF-e ${refusal.key}): ${refusal.reason}`;
  run.state.lastError = RECEIVABLE_ENCUMBERED;
  await run.finishCancelled({ requestedBy: BACKING_CHECK_ACTOR, reason, cancellationReason: RECEIVABLE_ENCUMBERED });
  return false;
}
