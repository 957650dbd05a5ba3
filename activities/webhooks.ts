import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../db/config';
import type { Logger } from '../db/logger';
import type { EventRecord } from '../domain/events';
import type { HostResolver } from '../domain/url-guard';
import { signatureHeaders } from '../domain/webhook-signature';
import { WebhookSubscription, WebhookSubscriptionRepository } from '../db/repositories/webhooks';
import { WebhookDeliveryRepository } from '../db/repositories/webhooks-deliveries';
import { createWebhookTransport } from './webhooks-http';
import { CipherRing } from '../db/crypto/cipher-ring';
import { webhookDeliveries, webhookDeliveryLag } from '../db/telemetry/metrics';

export interface WebhookActivityDeps {
  db: Knex;
  config: Config;
  logger: Logger;
  resolveHost: HostResolver;
}

export interface AttemptInput {
  eventId: string;
  subscriptionId: string;
  originatorId: string;
  timeoutMs: number;
  /** Delay before the next scheduled attempt should this one fail; null when it is the last. */
  nextRetryInMs: number | null;
}

export type AttemptResult = 'delivered' | 'failed' | 'subscription_deleted';

/** The contract's envelope, serialized once: these exact bytes are signed and sent. */
function envelope(event: EventRecord): string {
  return JSON.stringify({
    event_type: event.eventType,
    event_id: event.eventId,
    occurred_at: new Date(event.occurredAt).toISOString(),
    data: event.data,
  });
}

/** The one place a webhook secret is opened: to sign the attempt about to be sent. */
function signingSecrets(ring: CipherRing, subscription: WebhookSubscription, now: Date): string[] {
  const { sealedSecret, sealedPreviousSecret, previousSecretExpiresAt } = subscription;
  const sealed = sealedPreviousSecret && previousSecretExpiresAt && previousSecretExpiresAt > now ? [sealedSecret, sealedPreviousSecret] : [sealedSecret];
  return sealed.map((value) => ring.openText(value));
}

export function createWebhookActivities({ db, config, logger, resolveHost }: WebhookActivityDeps) {
  const post = createWebhookTransport({
    resolveHost,
    policy: { allowPrivateHosts: config.webhooks.allowPrivateHosts },
    extraCaPem: config.webhooks.extraCaPem,
  });
  const userAgent = `ReceivablesAnticipation-Webhooks/${config.apiVersion}`;
  const ring = new CipherRing(config.payloadKeys);

  return {
    /**
     * One delivery attempt: POST the signed envelope, record it. The receiver's answer is data,
     * not an activity failure; only our own infrastructure failing makes Temporal retry this.
     * The subscription is read afresh each time, so a deletion stops pending deliveries and a
     * rotated secret signs from the next attempt on.
     */
    async attemptWebhookDelivery(input: AttemptInput): Promise<AttemptResult> {
      const deliveries = new WebhookDeliveryRepository(db, input.originatorId);
      const [subscription, event] = await Promise.all([
        new WebhookSubscriptionRepository(db, input.originatorId).find(input.subscriptionId),
        deliveries.findEvent(input.eventId),
      ]);
      if (!subscription) return 'subscription_deleted';
      if (!event) throw ApplicationFailure.nonRetryable(`event ${input.eventId} not found`, 'event_not_found');
      const body = envelope(event);
      const now = new Date();
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': userAgent,
        ...signatureHeaders({ secrets: signingSecrets(ring, subscription, now), messageId: event.eventId, timestamp: Math.floor(now.getTime() / 1000), body }),
      };
      const outcome = await post(subscription.url, body, headers, input.timeoutMs);
      const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
      const retrying = !delivered && input.nextRetryInMs !== null;
      const record = await deliveries.record({
        id: uuidv7(),
        subscriptionId: subscription.id,
        eventId: event.eventId,
        eventType: event.eventType,
        url: subscription.url,
        responseStatusCode: outcome.statusCode,
        durationMs: outcome.durationMs,
        deliveredSuccessfully: delivered,
        nextRetryAt: retrying ? new Date(Date.now() + input.nextRetryInMs!) : null,
        error: outcome.error,
      });
      webhookDeliveries.inc({ outcome: delivered ? 'delivered' : retrying ? 'failed' : 'given_up' });
      if (delivered) webhookDeliveryLag.observe((Date.now() - new Date(event.occurredAt).getTime()) / 1000);
      if (!delivered) {
        logger.info('webhook attempt failed', {
          event_id: event.eventId, subscription_id: subscription.id, attempt_number: record.attemptNumber,
          response_status_code: outcome.statusCode, error: outcome.error, retrying,
        });
      }
      return delivered ? 'delivered' : 'failed';
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
