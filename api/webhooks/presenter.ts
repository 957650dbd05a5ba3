import type { WebhookSubscription } from '../../db/repositories/webhooks';
import type { WebhookDelivery } from '../../db/repositories/webhooks-deliveries';

/** A subscription as the contract shows it: the events under both names in use. Never the secret. */
export function presentWebhook(s: WebhookSubscription) {
  return {
    id: s.id,
    url: s.url,
    events: s.eventTypes,
    event_types: s.eventTypes,
    description: s.description,
    created_at: s.createdAt.toISOString(),
    previous_secret_expires_at: s.previousSecretExpiresAt?.toISOString() ?? null,
  };
}

/** Registration and rotation: the one response that shows the secret. */
export const presentWebhookWithSecret = (revealed: { subscription: WebhookSubscription; secret: string }) => ({ ...presentWebhook(revealed.subscription), hmac_secret: revealed.secret });

export function presentDelivery(d: WebhookDelivery) {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    url: d.url,
    response_status_code: d.responseStatusCode,
    duration_ms: d.durationMs,
    attempt_number: d.attemptNumber,
    delivered_successfully: d.deliveredSuccessfully,
    next_retry_at: d.nextRetryAt?.toISOString() ?? null,
    error: d.error,
    created_at: d.createdAt.toISOString(),
  };
}
