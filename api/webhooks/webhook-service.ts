import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../../platform/config/config';
import type { TemporalHandle } from '../temporal/client';
import type { EventType } from '../../domain/events';
import { Conflict, NotFound, RuleViolation, Unavailable } from '../../domain/errors';
import { EVENT_RETENTION_DAYS, keptSince } from '../../domain/event-retention';
import { WebhookRecovery, WebhookRecoveryRepository } from '../../db/repositories/webhook-recoveries';
import { recoveryStart } from '../../workflows/webhook-recovery';
import { startOnce } from '../../activities/workflow-start';
import { assertWebhookUrl, HostResolver } from '../../domain/url-guard';
import { newWebhookSecret } from '../../domain/webhook-signature';
import { Page, WebhookSubscription, WebhookSubscriptionRepository } from '../../db/repositories/webhooks';
import { WebhookDelivery, WebhookDeliveryRepository } from '../../db/repositories/webhooks-deliveries';
import { deliveryStart, retryNowSignal, type webhookDelivery } from '../../workflows/webhook-delivery';
import { CipherRing } from '../../platform/crypto/cipher-ring';

/** A subscription with its secret in clear: only as the answer to registration or rotation. */
export interface RevealedSubscription {
  subscription: WebhookSubscription;
  secret: string;
}

export interface WebhookServiceDeps {
  config: Config;
  now: () => Date;
  temporal: TemporalHandle;
  resolveHost: HostResolver;
}

/**
 * An endpoint receives the events recorded after its creation only; a window starting earlier would
 * silently re-deliver less than it names, so it is refused, saying from when it may start.
 */
function refuseWindowBeforeEndpoint(subscription: WebhookSubscription, since: Date): void {
  if (since >= subscription.createdAt) return;
  throw new RuleViolation({
    code: 'recover_window_before_endpoint', endpoint_created_at: subscription.createdAt.toISOString(),
    message: `The endpoint was created at ${subscription.createdAt.toISOString()} and receives only the events recorded since; since must not be earlier`,
  });
}

/** How long a rotated-out secret keeps signing beside the new one unless the rotation says less. */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 86_400;

/** The webhook rules of one originator, inside the request's unit of work. */
export class WebhookService {
  private readonly subscriptions: WebhookSubscriptionRepository;
  private readonly deliveries: WebhookDeliveryRepository;
  private readonly recoveries: WebhookRecoveryRepository;
  private readonly ring: CipherRing;

  constructor(private readonly deps: WebhookServiceDeps, db: Knex, private readonly originatorId: string) {
    this.subscriptions = new WebhookSubscriptionRepository(db, originatorId);
    this.deliveries = new WebhookDeliveryRepository(db, originatorId);
    this.recoveries = new WebhookRecoveryRepository(db, originatorId);
    this.ring = new CipherRing(deps.config.payloadKeys);
  }

  /** The secret is stored sealed; this answer is the one time it is seen in clear. */
  async register(input: { url: string; events: EventType[]; description: string | null; maxPerSecond?: number }): Promise<RevealedSubscription> {
    await assertWebhookUrl(input.url, this.deps.resolveHost, { allowPrivateHosts: this.deps.config.webhooks.allowPrivateHosts });
    const secret = newWebhookSecret();
    const subscription = await this.subscriptions.create({
      id: uuidv7(), url: input.url, eventTypes: [...new Set(input.events)], description: input.description, sealedSecret: this.ring.sealText(secret),
      maxPerSecond: input.maxPerSecond,
    });
    return { subscription, secret };
  }

  list(page: Page): Promise<{ items: WebhookSubscription[]; total: number }> {
    return this.subscriptions.list(page);
  }

  /** Pending deliveries stop by themselves: each attempt first reads the subscription. */
  async delete(id: string): Promise<void> {
    if (!(await this.subscriptions.delete(id))) throw new NotFound('webhook_not_found');
  }

  async deliveriesOf(id: string, page: Page, operationId: string | null): Promise<{ items: WebhookDelivery[]; total: number }> {
    await this.live(id);
    return this.deliveries.list(id, page, operationId);
  }

  /**
   * The outgoing secret is re-sealed with the newest key as it becomes the previous one, signing
   * beside the new one for `overlapSeconds`; 0 (a leaked secret) drops it at once, so the next
   * delivery carries one signature.
   */
  async rotateSecret(id: string, overlapSeconds: number): Promise<RevealedSubscription> {
    const current = await this.subscriptions.findForUpdate(id);
    if (!current) throw new NotFound('webhook_not_found');
    const secret = newWebhookSecret();
    const previous = overlapSeconds > 0
      ? { sealed: this.ring.sealText(this.ring.openText(current.sealedSecret)), until: new Date(Date.now() + overlapSeconds * 1000) }
      : null;
    const rotated = await this.subscriptions.rotateSecret(id, this.ring.sealText(secret), previous);
    if (!rotated) throw new NotFound('webhook_not_found');
    return { subscription: rotated, secret };
  }

  /**
   * Sends the delivery's event again now. A delivery still retrying is woken from its wait;
   * one that ended (delivered or given up) runs again for a single immediate attempt.
   */
  async retry(id: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.live(id);
    const delivery = await this.deliveries.find(id, deliveryId);
    if (!delivery) throw new NotFound('webhook_delivery_not_found');
    const { config, temporal } = this.deps;
    const start = deliveryStart({
      eventId: delivery.eventId, subscriptionId: id, originatorId: this.originatorId, retryScheduleMs: [0], timeoutMs: config.webhooks.timeoutMs,
    });
    try {
      await temporal.client.workflow.signalWithStart<typeof webhookDelivery, []>('webhookDelivery', {
        ...start, taskQueue: temporal.taskQueue, signal: retryNowSignal, signalArgs: [], workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
    } catch {
      throw new Unavailable('webhook_delivery_unavailable');
    }
    return delivery;
  }

  /**
   * Re-delivers the window's events to the endpoint in the background. The recovery's row is written
   * in the request's transaction before its workflow starts, and a Temporal outage rolls it back (503,
   * nothing written); the workflow's first step writes the same row should this request fail after the
   * start. Written the other way round, the workflow's first insert could beat the request's: its
   * foreign-key check then waits on the endpoint's row, which `enable` holds FOR UPDATE, while the
   * request's insert of the same id waits on that first insert, and Postgres broke the cycle with a
   * deadlock error, a 500 (a CI run, 2026-11-27).
   */
  async recover(id: string, window: { since: Date; until: Date | null }, now: Date): Promise<{ recovery: WebhookRecovery; total: number }> {
    const subscription = await this.oneRecoveryAtATime(id);
    const until = window.until === null || window.until > now ? now : window.until;
    if (window.since < keptSince(now)) {
      throw new RuleViolation({ code: 'recover_since_beyond_retention', message: `Events are kept ${EVENT_RETENTION_DAYS} days; since must be within them`, kept_since: keptSince(now).toISOString() });
    }
    if (window.since >= until) throw new RuleViolation({ code: 'recover_window_empty', message: 'since must be before until (and before now)' });
    refuseWindowBeforeEndpoint(subscription, window.since);
    const recoveryId = uuidv7();
    const { config, temporal } = this.deps;
    const start = recoveryStart({
      recoveryId, subscriptionId: id, originatorId: this.originatorId, since: window.since.toISOString(), until: until.toISOString(),
      timeoutMs: config.webhooks.timeoutMs, retryScheduleMs: config.webhooks.retryScheduleMs,
    });
    const recovery = await this.recoveries.ensure({ id: recoveryId, subscriptionId: id, since: window.since, until });
    try {
      await startOnce(temporal.client, 'webhookRecovery', { ...start, taskQueue: temporal.taskQueue });
    } catch {
      throw new Unavailable('webhook_recovery_unavailable');
    }
    return { recovery, total: await this.recoveries.total(recovery, subscription) };
  }

  async recovery(id: string, recoveryId: string): Promise<{ recovery: WebhookRecovery; total: number }> {
    const subscription = await this.live(id);
    const recovery = await this.recoveries.find(id, recoveryId);
    if (!recovery) throw new NotFound('webhook_recovery_not_found');
    return { recovery, total: await this.recoveries.total(recovery, subscription) };
  }

  /** Back on; with `recover`, what it missed while disabled is re-delivered. */
  async enable(id: string, recover: boolean, now: Date): Promise<{ subscription: WebhookSubscription; recovery: { recovery: WebhookRecovery; total: number } | null }> {
    const before = await this.subscriptions.findForUpdate(id);
    if (!before) throw new NotFound('webhook_not_found');
    const subscription = (await this.subscriptions.enable(id))!;
    const disabledAt = before.health.disabledAt;
    const since = new Date(Math.max(disabledAt?.getTime() ?? 0, before.createdAt.getTime(), keptSince(now).getTime()));
    const recovery = recover && disabledAt ? await this.recover(id, { since, until: now }, now) : null;
    return { subscription, recovery };
  }

  /**
   * The endpoint, locked until the request ends so two recoveries asked at once take turns, and
   * refused while one of its recoveries still runs: each would send the same events again.
   */
  private async oneRecoveryAtATime(id: string): Promise<WebhookSubscription> {
    const subscription = await this.subscriptions.findForUpdate(id);
    if (!subscription) throw new NotFound('webhook_not_found');
    const running = await this.recoveries.running(id);
    if (running) {
      throw new Conflict({ code: 'webhook_recovery_running', message: 'A recovery of this endpoint is still running: wait for it to end', recovery_id: running.id });
    }
    return subscription;
  }

  private async live(id: string): Promise<WebhookSubscription> {
    const subscription = await this.subscriptions.find(id);
    if (!subscription) throw new NotFound('webhook_not_found');
    return subscription;
  }
}
