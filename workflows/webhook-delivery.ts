import { condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { RetryPolicy, SearchAttributePair } from '@temporalio/common';
import type { WebhookActivities } from '../activities/webhooks';
import { ORIGINATOR_ID } from '../domain/search-attributes';
import { deliveryWorkflowId } from '../domain/workflow-ids';

/**
 * One webhook delivery: one event to one subscription, attempted on the schedule it was started
 * with (DESIGN.md §10: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then given up.
 */
export interface WebhookDeliveryInput {
  eventId: string;
  subscriptionId: string;
  originatorId: string;
  /** Wait before each attempt; its length is the number of attempts. Fixed at start, so a config change never alters a running delivery. */
  retryScheduleMs: number[];
  timeoutMs: number;
}

export interface WebhookDeliveryState {
  attempts: number;
  outcome: 'pending' | 'delivered' | 'given_up' | 'subscription_deleted' | 'subscription_disabled';
}

/** One workflow per (event, subscription): starting it twice finds the first. */
export { deliveryWorkflowId };

/** What every start of a delivery shares, whoever starts it (the dispatcher, the retry route). */
export function deliveryStart(input: WebhookDeliveryInput): { workflowId: string; args: [WebhookDeliveryInput]; typedSearchAttributes: SearchAttributePair[] } {
  return {
    workflowId: deliveryWorkflowId(input.eventId, input.subscriptionId),
    args: [input],
    typedSearchAttributes: [{ key: ORIGINATOR_ID, value: input.originatorId }],
  };
}

/** Ends the current wait: the next attempt goes out now (the retry route). */
export const retryNowSignal = defineSignal('retryNow');
export const stateQuery = defineQuery<WebhookDeliveryState>('state');

/** Our own failures (database, worker lost mid-attempt) are retried here; the receiver's follow the schedule. */
const INFRASTRUCTURE_RETRY: RetryPolicy = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' };

/** Time for the POST itself plus the reads and the record around it. */
const ATTEMPT_OVERHEAD_MS = 15_000;

export async function webhookDelivery(input: WebhookDeliveryInput): Promise<WebhookDeliveryState> {
  const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: input.timeoutMs + ATTEMPT_OVERHEAD_MS,
    retry: INFRASTRUCTURE_RETRY,
  });
  const state: WebhookDeliveryState = { attempts: 0, outcome: 'pending' };
  let retryRequested = false;
  setHandler(retryNowSignal, () => { retryRequested = true; });
  setHandler(stateQuery, () => state);

  const schedule = input.retryScheduleMs;
  for (const [index, waitMs] of schedule.entries()) {
    if (waitMs > 0) await condition(() => retryRequested, waitMs);
    retryRequested = false;
    const result = await attemptWebhookDelivery({
      eventId: input.eventId,
      subscriptionId: input.subscriptionId,
      originatorId: input.originatorId,
      timeoutMs: input.timeoutMs,
      nextRetryInMs: index + 1 < schedule.length ? schedule[index + 1] : null,
    });
    if (result === 'delivered' || result === 'failed') state.attempts += 1;
    if (result !== 'failed') {
      state.outcome = result;
      return state;
    }
  }
  state.outcome = 'given_up';
  return state;
}
