import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../config';
import type { TemporalHandle } from '../temporal-client';
import type { EventType } from '../../domain/events';
import { NotFound, Unavailable } from '../../domain/errors';
import { assertWebhookUrl, HostResolver } from '../../domain/url-guard';
import { newWebhookSecret } from '../../domain/webhook-signature';
import { Page, WebhookSubscription, WebhookSubscriptionRepository } from '../../db/repositories/webhooks';
import { WebhookDelivery, WebhookDeliveryRepository } from '../../db/repositories/webhooks-deliveries';
import { deliveryStart, retryNowSignal, type webhookDelivery } from '../../workflows/webhook-delivery';

export interface WebhookServiceDeps {
  config: Config;
  temporal: TemporalHandle;
  resolveHost: HostResolver;
}

/** How long a rotated-out secret keeps signing beside the new one. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** The webhook rules of one originator, inside the request's unit of work. */
export class WebhookService {
  private readonly subscriptions: WebhookSubscriptionRepository;
  private readonly deliveries: WebhookDeliveryRepository;

  constructor(private readonly deps: WebhookServiceDeps, db: Knex, private readonly originatorId: string) {
    this.subscriptions = new WebhookSubscriptionRepository(db, originatorId);
    this.deliveries = new WebhookDeliveryRepository(db, originatorId);
  }

  async register(input: { url: string; events: EventType[]; description: string | null }): Promise<WebhookSubscription> {
    await assertWebhookUrl(input.url, this.deps.resolveHost, { allowPrivateHosts: this.deps.config.webhooks.allowPrivateHosts });
    return this.subscriptions.create({
      id: uuidv7(), url: input.url, eventTypes: [...new Set(input.events)], description: input.description, secret: newWebhookSecret(),
    });
  }

  list(page: Page): Promise<{ items: WebhookSubscription[]; total: number }> {
    return this.subscriptions.list(page);
  }

  /** Pending deliveries stop by themselves: each attempt first reads the subscription. */
  async delete(id: string): Promise<void> {
    if (!(await this.subscriptions.delete(id))) throw new NotFound('webhook_not_found');
  }

  async deliveriesOf(id: string, page: Page): Promise<{ items: WebhookDelivery[]; total: number }> {
    await this.live(id);
    return this.deliveries.list(id, page);
  }

  async rotateSecret(id: string): Promise<WebhookSubscription> {
    const rotated = await this.subscriptions.rotateSecret(id, newWebhookSecret(), new Date(Date.now() + ROTATION_OVERLAP_MS));
    if (!rotated) throw new NotFound('webhook_not_found');
    return rotated;
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

  private async live(id: string): Promise<WebhookSubscription> {
    const subscription = await this.subscriptions.find(id);
    if (!subscription) throw new NotFound('webhook_not_found');
    return subscription;
  }
}
