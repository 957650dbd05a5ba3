import { patched } from '@temporalio/workflow';
import type { OperationRun } from '../operation-run';
import type { NfeRefusal } from '../../../activities/nfe-check';
import { payerConfirmationDeadline, payerRecheckDelayMs } from '../../../domain/sefaz/payer-confirmation';
import { RECEIVABLE_ENCUMBERED } from '../../../domain/escriturador/registration';

/** Operations whose histories were recorded before the check existed replay without it. */
export const NFE_CHECK_PATCH = 'nfe-check-before-pix';

/** Histories recorded before a product could require the payer's confirmation replay without the wait. */
export const PAYER_CONFIRMATION_PATCH = 'nfe-payer-confirmation';

/** Operations whose histories were recorded before the registration existed replay without it. */
export const REGISTRATION_PATCH = 'registration-before-pix';

/** Who the read model names as the actor of a cancellation no one asked for. */
export const BACKING_CHECK_ACTOR = 'system:backing-check';

/** When the NF-e step asks SEFAZ again for a payer's confirmation; null while it waits for none. */
export interface PayerWait {
  recheckAt: string | null;
}

/**
 * The checks of what backs the operation, the last thing before its PIX is ordered: each NF-e at
 * SEFAZ, then our acquisition of each duplicata at its escriturador.
 * Resolves true when the PIX may go, false once the operation is cancelled.
 */
export async function backingStillHolds(run: OperationRun, payerWait: PayerWait): Promise<boolean> {
  if (!patched(NFE_CHECK_PATCH)) return true;
  if (!(await nfesStillHold(run, payerWait))) return false;
  return actsRegistered(run);
}

/**
 * Each NF-e at SEFAZ (an NF-e may be cancelled within 24 h of its authorization, and a payer may
 * change its word after creation). A refusal cancels the operation with its reason and moves no
 * money; no verdict keeps the activity retrying, so the operation waits in SIGNED. Under a product
 * that requires the payer's confirmation, the check is asked again on the operation's clock, further
 * apart each time, until the payer confirms or the product's deadline passes.
 */
async function nfesStillHold(run: OperationRun, payerWait: PayerWait): Promise<boolean> {
  const waitsForPayer = patched(PAYER_CONFIRMATION_PATCH);
  const firstCheckAt = run.now();
  try {
    for (let checks = 1; ; checks += 1) {
      const { refusal, awaitingPayer } = await run.backing.checkNfesBeforePayout({ operationId: run.input.operationId });
      if (refusal) return await cancelled(run, refusal.reason, refusalText(refusal));
      if (!awaitingPayer || !waitsForPayer) return true;
      const deadline = payerConfirmationDeadline(firstCheckAt, awaitingPayer.deadlineDays);
      if (run.hasReached(deadline) || run.clock?.state.deleted) {
        return await cancelled(run, 'payer_confirmation_missing', `A payer has not confirmed its NF-e (manifestação 210200) by ${deadline}`);
      }
      const recheckAt = new Date(Math.min(run.now().getTime() + payerRecheckDelayMs(checks), Date.parse(deadline))).toISOString();
      payerWait.recheckAt = recheckAt;
      await run.untilDeadline(recheckAt, () => false);
      // On a test clock the operation's time moves to the clock's (never past the deadline), so a long advance is one check, not one per step missed.
      if (run.clock) run.clock.reach(new Date(Math.min(Date.parse(run.clock.state.target), Date.parse(deadline))).toISOString());
    }
  } finally {
    payerWait.recheckAt = null;
  }
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
  return cancelled(run, RECEIVABLE_ENCUMBERED,
    `Receivable ${refusal.externalId}: the escriturador refused our acquisition of its duplicata (NF-e ${refusal.key}): ${refusal.reason}`);
}

function refusalText(refusal: NfeRefusal): string {
  return `Receivable ${refusal.externalId}: NF-e ${refusal.key} failed its check at SEFAZ (cStat ${refusal.cStat}: ${refusal.xMotivo})`;
}

async function cancelled(run: OperationRun, cancellationReason: string, reason: string): Promise<false> {
  run.state.lastError = cancellationReason;
  await run.finishCancelled({ requestedBy: BACKING_CHECK_ACTOR, reason, cancellationReason });
  return false;
}
