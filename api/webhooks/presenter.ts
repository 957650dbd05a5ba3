import type { WebhookSubscription } from '../../db/repositories/webhooks';
import type { WebhookDelivery } from '../../db/repositories/webhooks-deliveries';
import type { WebhookRecovery } from '../../db/repositories/webhook-recoveries';
import type { Schema } from '../openapi/contract-types';

/** A subscription as the contract shows it: the events under both names in use. Never the secret. */
export function presentWebhook(s: WebhookSubscription): Schema<'Webhook'> {
  return {
    id: s.id,
    url: s.url,
    events: s.eventTypes,
    event_types: s.eventTypes,
    description: s.description,
    created_at: s.createdAt.toISOString(),
    previous_secret_expires_at: s.previousSecretExpiresAt?.toISOString() ?? null,
    status: s.health.status,
    disabled_reason: s.health.disabledReason,
    disabled_at: iso(s.health.disabledAt),
    last_success_at: iso(s.health.lastSuccessAt),
    last_failure_at: iso(s.health.lastFailureAt),
    failing_since: iso(s.health.failingSince),
    failure_streak: s.health.failureStreak,
    max_per_second: s.maxPerSecond,
  };
}

const iso = (at: Date | null): string | null => at?.toISOString() ?? null;

export function presentRecovery({ recovery, total }: { recovery: WebhookRecovery; total: number }): Schema<'WebhookRecovery'> {
  return {
    id: recovery.id,
    webhook_id: recovery.subscriptionId,
    since: recovery.since.toISOString(),
    until: recovery.until.toISOString(),
    status: recovery.status,
    total,
    delivered: recovery.delivered,
    failed_event_id: recovery.failedEventId,
    last_error: recovery.lastError,
    created_at: recovery.createdAt.toISOString(),
    finished_at: iso(recovery.finishedAt),
  };
}

/** Registration and rotation: the one response that shows the secret. */
export const presentWebhookWithSecret = (revealed: { subscription: WebhookSubscription; secret: string }): Schema<'WebhookWithSecret'> => ({ ...presentWebhook(revealed.subscription), hmac_secret: revealed.secret });

export function presentDelivery(d: WebhookDelivery): Schema<'WebhookDelivery'> {
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
