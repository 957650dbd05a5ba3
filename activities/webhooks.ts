import { ApplicationFailure } from '@temporalio/common';
import { WebhookSubscriptionRepository } from '../db/repositories/webhooks';
import { WebhookDeliveryRepository } from '../db/repositories/webhooks-deliveries';
import { createEventSender, SendDeps, SendResult } from './webhook-send';
import { createRecoveryActivities } from './webhook-recovery';

export type WebhookActivityDeps = SendDeps;

export interface AttemptInput {
  eventId: string;
  subscriptionId: string;
  originatorId: string;
  timeoutMs: number;
  /** Delay before the next scheduled attempt should this one fail; null when it is the last. */
  nextRetryInMs: number | null;
}

export type AttemptResult = SendResult;

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const send = createEventSender(deps);

  return {
    /**
     * One delivery attempt: POST the signed envelope, record it. The receiver's answer is data,
     * not an activity failure; only our own infrastructure failing makes Temporal retry this.
     * The subscription is read afresh each time, so a deletion or a disabled endpoint stops
     * pending deliveries and a rotated secret signs from the next attempt on.
     */
    async attemptWebhookDelivery(input: AttemptInput): Promise<AttemptResult> {
      const [subscription, event] = await Promise.all([
        new WebhookSubscriptionRepository(deps.db, input.originatorId).find(input.subscriptionId),
        new WebhookDeliveryRepository(deps.db, input.originatorId).findEvent(input.eventId),
      ]);
      if (!subscription) return 'subscription_deleted';
      if (subscription.health.status === 'disabled') return 'subscription_disabled';
      if (!event) throw ApplicationFailure.nonRetryable(`event ${input.eventId} not found`, 'event_not_found');
      return send(subscription, event, input);
    },
    ...createRecoveryActivities(deps.db, send),
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
