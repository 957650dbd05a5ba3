import type { EventType, StoredEvent } from '../../domain/events';
import { TenantScopedRepository } from './tenant-scoped';
import { OPERATION_OBJECT_ID_PARAMS, operationObjectIds } from './operation-objects';
import type { Page } from './webhooks';

/** One delivery attempt: the contract's delivery record. */
export interface WebhookDelivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: EventType;
  url: string;
  attemptNumber: number;
  responseStatusCode: number | null;
  durationMs: number;
  deliveredSuccessfully: boolean;
  nextRetryAt: Date | null;
  /** Why there was no 2xx answer when there was no HTTP status at all (timeout, refused address...). */
  error: string | null;
  createdAt: Date;
}

export type NewAttempt = Omit<WebhookDelivery, 'attemptNumber' | 'createdAt'>;

interface DeliveryRow {
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: EventType;
  url: string;
  attempt_number: number;
  response_status_code: number | null;
  duration_ms: number;
  delivered_successfully: boolean;
  next_retry_at: Date | null;
  error: string | null;
  created_at: Date;
}

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  subscriptionId: row.subscription_id,
  eventId: row.event_id,
  eventType: row.event_type,
  url: row.url,
  attemptNumber: row.attempt_number,
  responseStatusCode: row.response_status_code,
  durationMs: row.duration_ms,
  deliveredSuccessfully: row.delivered_successfully,
  nextRetryAt: row.next_retry_at,
  error: row.error,
  createdAt: row.created_at,
});

/** The delivery log of one originator, and the events its deliveries carry. */
export class WebhookDeliveryRepository extends TenantScopedRepository {
  /** The subscription's attempts, newest first; with `operationId`, only those carrying that operation's story (`operationObjectIds`). */
  async list(subscriptionId: string, page: Page, operationId: string | null = null): Promise<{ items: WebhookDelivery[]; total: number }> {
    const of = () => {
      const attempts = this.scoped('webhook_deliveries').where({ subscription_id: subscriptionId });
      if (operationId === null) return attempts;
      return attempts.whereRaw(`event_id in (select e.event_id from events as e where e.object_id = any(array(${operationObjectIds(() => '?')})))`,
        Array(OPERATION_OBJECT_ID_PARAMS).fill(operationId));
    };
    const [rows, [{ count }]] = await Promise.all([
      of().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'attempt_number', order: 'desc' }]).limit(page.limit).offset(page.offset),
      of().count({ count: '*' }),
    ]);
    return { items: rows.map(toDelivery), total: Number(count) };
  }

  async find(subscriptionId: string, id: string): Promise<WebhookDelivery | null> {
    const row = await this.scoped('webhook_deliveries').where({ subscription_id: subscriptionId, id }).first();
    return row ? toDelivery(row) : null;
  }

  /**
   * Records one POST. Its number is the pair's next one, so scheduled attempts and manual
   * re-sends share one sequence; the unique key refuses a concurrent duplicate number.
   */
  async record(attempt: NewAttempt): Promise<WebhookDelivery> {
    const pair = { subscription_id: attempt.subscriptionId, event_id: attempt.eventId };
    const last = await this.scoped('webhook_deliveries').where(pair).max({ n: 'attempt_number' }).first();
    const [row] = await this.insertOwned('webhook_deliveries', {
      ...pair,
      id: attempt.id,
      event_type: attempt.eventType,
      url: attempt.url,
      attempt_number: Number(last?.n ?? 0) + 1,
      response_status_code: attempt.responseStatusCode,
      duration_ms: attempt.durationMs,
      delivered_successfully: attempt.deliveredSuccessfully,
      next_retry_at: attempt.nextRetryAt,
      error: attempt.error,
    }).returning('*');
    return toDelivery(row);
  }

  async findEvent(eventId: string): Promise<StoredEvent | null> {
    const row = await this.scoped('events').where({ event_id: eventId }).first();
    return row
      ? {
        eventId: row.event_id, originatorId: row.originator_id, eventType: row.event_type, objectId: row.object_id, sequence: row.sequence,
        data: row.data, occurredAt: row.occurred_at,
      }
      : null;
  }

  /** The subscription has the event: it no longer counts as waiting (`GET /v1/events?delivery_success=false`). */
  async received(subscriptionId: string, eventId: string): Promise<void> {
    await this.scoped('webhook_pending_events').where({ subscription_id: subscriptionId, event_id: eventId }).delete();
  }
}
