import type { Knex } from 'knex';
import type { StoredEvent } from '../../domain/events';
import { fromColumns } from './columns';
import { TenantScopedRepository } from './tenant-scoped';
import type { WebhookSubscription } from './webhooks';

export type RecoveryStatus = 'running' | 'completed' | 'failed' | 'cancelled';

export interface WebhookRecovery {
  id: string;
  originatorId: string;
  subscriptionId: string;
  since: Date;
  until: Date;
  status: RecoveryStatus;
  delivered: number;
  lastPosition: string;
  failedEventId: string | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

export type NewRecovery = Pick<WebhookRecovery, 'id' | 'subscriptionId' | 'since' | 'until'>;

interface RecoveredRow {
  event_id: string;
  originator_id: string;
  event_type: StoredEvent['eventType'];
  object_id: string;
  sequence: number;
  data: Record<string, unknown>;
  occurred_at: Date;
  position: string;
}

const recoveryOf = (row: Record<string, unknown>) => fromColumns<WebhookRecovery>(row);

/** Recoveries of one originator's endpoints and the events each one re-delivers. */
export class WebhookRecoveryRepository extends TenantScopedRepository {
  /** Written by the route and by the workflow's first step, whichever comes first. */
  async ensure(recovery: NewRecovery): Promise<WebhookRecovery> {
    await this.insertOwned('webhook_recoveries', {
      id: recovery.id, subscription_id: recovery.subscriptionId, since: recovery.since, until: recovery.until, status: 'running',
    }).onConflict('id').ignore();
    return (await this.find(recovery.subscriptionId, recovery.id))!;
  }

  /** The endpoint's recovery still running, if any (one at a time per endpoint). */
  async running(subscriptionId: string): Promise<WebhookRecovery | null> {
    const row = await this.scoped('webhook_recoveries').where({ subscription_id: subscriptionId, status: 'running' }).first();
    return row ? recoveryOf(row) : null;
  }

  async find(subscriptionId: string, id: string): Promise<WebhookRecovery | null> {
    const row = await this.scoped('webhook_recoveries').where({ subscription_id: subscriptionId, id }).first();
    return row ? recoveryOf(row) : null;
  }

  /**
   * The window's events the endpoint is subscribed to, after `afterPosition`, in `position`
   * order: the order they were recorded in, which is each object's `sequence` order.
   */
  async nextEvents(recovery: WebhookRecovery, subscription: WebhookSubscription, limit: number): Promise<(StoredEvent & { position: string })[]> {
    const rows: RecoveredRow[] = await this.window(recovery, subscription).where('position', '>', recovery.lastPosition).orderBy('position').limit(limit);
    return rows.map((row) => ({
      eventId: row.event_id, originatorId: row.originator_id, eventType: row.event_type, objectId: row.object_id, sequence: row.sequence,
      data: row.data, occurredAt: row.occurred_at, position: row.position,
    }));
  }

  async total(recovery: WebhookRecovery, subscription: WebhookSubscription): Promise<number> {
    return Number((await this.window(recovery, subscription).count({ n: '*' }))[0].n);
  }

  async delivered(id: string, position: string): Promise<void> {
    await this.scoped('webhook_recoveries').where({ id })
      .update({ delivered: this.db.raw('delivered + 1'), last_position: position, last_error: null, failed_event_id: null, updated_at: new Date() });
  }

  async stalled(id: string, eventId: string, error: string): Promise<void> {
    await this.scoped('webhook_recoveries').where({ id }).update({ failed_event_id: eventId, last_error: error, updated_at: new Date() });
  }

  async finish(id: string, status: Exclude<RecoveryStatus, 'running'>): Promise<void> {
    const now = new Date();
    await this.scoped('webhook_recoveries').where({ id, status: 'running' }).update({ status, finished_at: now, updated_at: now });
  }

  private window(recovery: WebhookRecovery, subscription: WebhookSubscription): Knex.QueryBuilder {
    return this.scoped('events').whereIn('event_type', subscription.eventTypes)
      .where('occurred_at', '>=', recovery.since).where('occurred_at', '<', recovery.until)
      .where('created_at', '>=', subscription.createdAt);
  }
}
