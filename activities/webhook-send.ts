import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import { eventEnvelope, eventId, StoredEvent } from '../domain/events';
import type { HostResolver } from '../domain/url-guard';
import { signatureHeaders } from '../domain/webhook-signature';
import { recordEvent } from '../db/repositories/events';
import { takeSendSlot } from '../db/repositories/webhook-throttle';
import { WebhookSubscription, WebhookSubscriptionRepository } from '../db/repositories/webhooks';
import { WebhookDeliveryRepository } from '../db/repositories/webhooks-deliveries';
import { CipherRing } from '../platform/crypto/cipher-ring';
import { createWebhookTransport } from '../providers/webhooks-http';
import { webhookDeliveries, webhookDeliveryLag } from '../platform/telemetry/metrics';

export interface SendDeps {
  db: Knex;
  config: Config;
  logger: Logger;
  resolveHost: HostResolver;
}

/** The one place a webhook secret is opened: to sign the attempt about to be sent. */
function signingSecrets(ring: CipherRing, subscription: WebhookSubscription, now: Date): string[] {
  const { sealedSecret, sealedPreviousSecret, previousSecretExpiresAt } = subscription;
  const sealed = sealedPreviousSecret && previousSecretExpiresAt && previousSecretExpiresAt > now ? [sealedSecret, sealedPreviousSecret] : [sealedSecret];
  return sealed.map((value) => ring.openText(value));
}

/**
 * Sends one event to one endpoint and records it, whoever asks (a scheduled delivery, a
 * recovery): within the endpoint's `max_per_second`, signed, one delivery record, the pair no
 * longer pending once received, and the endpoint's health moved, which may disable it.
 */
export function createEventSender({ db, config, logger, resolveHost }: SendDeps) {
  const post = createWebhookTransport({
    resolveHost,
    policy: { allowPrivateHosts: config.webhooks.allowPrivateHosts },
    extraCaPem: config.webhooks.extraCaPem,
  });
  const userAgent = `ReceivablesAnticipation-Webhooks/${config.apiVersion}`;
  const ring = new CipherRing(config.payloadKeys);

  /**
   * Waits for a slot of the endpoint's second, then reads it again: a wait behind a burst can be
   * long, and an endpoint deleted or disabled meanwhile receives nothing more.
   */
  async function throttle(subscription: WebhookSubscription): Promise<WebhookSubscription | null> {
    for (let waited = false; ; waited = true) {
      const now = Date.now();
      if (await takeSendSlot(db, subscription.id, subscription.maxPerSecond, Math.floor(now / 1000))) {
        return waited ? new WebhookSubscriptionRepository(db, subscription.originatorId).find(subscription.id) : subscription;
      }
      await sleep(1000 - (now % 1000));
    }
  }

  /** The streak is over its span: the endpoint is off, and its owner is told by an operational event. */
  async function moveHealth(subscription: WebhookSubscription, delivered: boolean, at: Date): Promise<void> {
    await db.transaction(async (trx) => {
      const disabled = await new WebhookSubscriptionRepository(trx, subscription.originatorId).recordOutcome(subscription.id, delivered, at, config.webhooks.disableAfterMs);
      if (!disabled) return;
      const { health } = disabled;
      await recordEvent(trx, {
        eventId: eventId(disabled.id, 'webhook_endpoint.disabled', health.disabledAt!.toISOString()), originatorId: disabled.originatorId,
        eventType: 'webhook_endpoint.disabled', occurredAt: health.disabledAt!,
        data: {
          webhook_id: disabled.id, originator_id: disabled.originatorId, url: disabled.url, disabled_reason: health.disabledReason,
          failing_since: health.failingSince!.toISOString(), last_success_at: health.lastSuccessAt?.toISOString() ?? null,
        },
      });
      logger.warn('webhook endpoint disabled', { subscription_id: disabled.id, failing_since: health.failingSince!.toISOString() });
    });
  }

  return async function send(endpoint: WebhookSubscription, event: StoredEvent, options: { timeoutMs: number; nextRetryInMs: number | null }): Promise<SendResult> {
    const subscription = await throttle(endpoint);
    if (!subscription) return 'subscription_deleted';
    if (subscription.health.status === 'disabled') return 'subscription_disabled';
    const deliveries = new WebhookDeliveryRepository(db, subscription.originatorId);
    // Serialized once: these exact bytes are signed and sent.
    const body = JSON.stringify(eventEnvelope(event));
    const now = new Date();
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': userAgent,
      ...signatureHeaders({ secrets: signingSecrets(ring, subscription, now), messageId: event.eventId, timestamp: Math.floor(now.getTime() / 1000), body }),
    };
    const outcome = await post(subscription.url, body, headers, options.timeoutMs);
    const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const retrying = !delivered && options.nextRetryInMs !== null;
    const record = await deliveries.record({
      id: uuidv7(),
      subscriptionId: subscription.id,
      eventId: event.eventId,
      eventType: event.eventType,
      url: subscription.url,
      responseStatusCode: outcome.statusCode,
      durationMs: outcome.durationMs,
      deliveredSuccessfully: delivered,
      nextRetryAt: retrying ? new Date(Date.now() + options.nextRetryInMs!) : null,
      error: outcome.error,
    });
    webhookDeliveries.inc({ outcome: delivered ? 'delivered' : retrying ? 'failed' : 'given_up' });
    if (delivered) webhookDeliveryLag.observe((Date.now() - new Date(event.occurredAt).getTime()) / 1000);
    if (delivered) await deliveries.received(subscription.id, event.eventId);
    await moveHealth(subscription, delivered, new Date());
    if (!delivered) {
      logger.info('webhook attempt failed', {
        event_id: event.eventId, subscription_id: subscription.id, attempt_number: record.attemptNumber,
        response_status_code: outcome.statusCode, error: outcome.error, retrying,
      });
    }
    return delivered ? 'delivered' : 'failed';
  };
}

export type SendResult = 'delivered' | 'failed' | 'subscription_deleted' | 'subscription_disabled';

export type EventSender = ReturnType<typeof createEventSender>;
