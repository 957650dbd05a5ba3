import { proxyActivities, sleep } from '@temporalio/workflow';
import type { RetryPolicy, SearchAttributePair } from '@temporalio/common';
import type { WebhookActivities } from '../activities/webhooks';
import { RECOVERY_BATCH, RecoveryInput } from '../domain/webhook-recovery';
import { ORIGINATOR_ID } from '../domain/search-attributes';

/**
 * `POST /v1/webhooks/{id}/recover`: the window's events re-delivered to one endpoint
 * in recording order, step by step. When the endpoint refuses an event the recovery waits and
 * tries that event again on the delivery schedule; once the schedule is spent it ends `failed`.
 */
export interface WebhookRecoveryInput extends RecoveryInput {
  /** The waits before each retry of a refused event, as a delivery's schedule (its first entry, 0, is the first try). */
  retryScheduleMs: number[];
}

export const recoveryWorkflowId = (recoveryId: string): string => `webhook-recovery-${recoveryId}`;

export function recoveryStart(input: WebhookRecoveryInput): { workflowId: string; args: [WebhookRecoveryInput]; typedSearchAttributes: SearchAttributePair[] } {
  return { workflowId: recoveryWorkflowId(input.recoveryId), args: [input], typedSearchAttributes: [{ key: ORIGINATOR_ID, value: input.originatorId }] };
}

const INFRASTRUCTURE_RETRY: RetryPolicy = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' };
const POST_OVERHEAD_MS = 5_000;

export async function webhookRecovery(input: WebhookRecoveryInput): Promise<void> {
  const { recoverWebhookEvents, giveUpWebhookRecovery } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: RECOVERY_BATCH * (input.timeoutMs + POST_OVERHEAD_MS),
    retry: INFRASTRUCTURE_RETRY,
  });
  const { retryScheduleMs, ...step } = input;
  let refusals = 0;
  for (;;) {
    const result = await recoverWebhookEvents(step);
    if (result === 'finished') return;
    if (result === 'more') {
      refusals = 0;
      continue;
    }
    refusals += 1;
    if (refusals >= retryScheduleMs.length) {
      await giveUpWebhookRecovery({ recoveryId: input.recoveryId, originatorId: input.originatorId });
      return;
    }
    await sleep(retryScheduleMs[refusals]);
  }
}
