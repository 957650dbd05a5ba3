import type { EventType } from '../../domain/events';
import { TenantScopedRepository } from './tenant-scoped';

export interface WebhookSubscription {
  id: string;
  originatorId: string;
  url: string;
  eventTypes: EventType[];
  description: string | null;
  /** The HMAC secret sealed with the key ring (`enc:v1:...`); opened only by the delivery activity. */
  sealedSecret: string;
  /** Still signs beside the secret until `previousSecretExpiresAt` (rotation overlap); sealed too. */
  sealedPreviousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  health: EndpointHealth;
  maxPerSecond: number;
}

/** Whether the endpoint still receives, and how its deliveries have gone. */
export interface EndpointHealth {
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  disabledAt: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  /** The first failure since the last success; null while the last delivery succeeded. */
  failingSince: Date | null;
  failureStreak: number;
}

/** Why an endpoint was disabled: every delivery failed for the configured span. */
export const DISABLED_FOR_FAILURES = 'deliveries_failing';

export interface Page {
  limit: number;
  offset: number;
}

interface SubscriptionRow {
  id: string;
  originator_id: string;
  url: string;
  event_types: EventType[];
  description: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  disabled_at: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  failing_since: Date | null;
  failure_streak: number;
  max_per_second: number;
}

const toSubscription = (row: SubscriptionRow): WebhookSubscription => ({
  id: row.id,
  originatorId: row.originator_id,
  url: row.url,
  eventTypes: row.event_types,
  description: row.description,
  sealedSecret: row.secret,
  sealedPreviousSecret: row.previous_secret,
  previousSecretExpiresAt: row.previous_secret_expires_at,
  createdAt: row.created_at,
  health: {
    status: row.status, disabledReason: row.disabled_reason, disabledAt: row.disabled_at, lastSuccessAt: row.last_success_at,
    lastFailureAt: row.last_failure_at, failingSince: row.failing_since, failureStreak: row.failure_streak,
  },
  maxPerSecond: row.max_per_second,
});

/** Live (not deleted) webhook subscriptions of one originator. */
export class WebhookSubscriptionRepository extends TenantScopedRepository {
  private live() {
    return this.scoped('webhook_subscriptions').whereNull('deleted_at');
  }

  async create(input: Pick<WebhookSubscription, 'id' | 'url' | 'eventTypes' | 'description' | 'sealedSecret'> & { maxPerSecond?: number }): Promise<WebhookSubscription> {
    const [row] = await this.insertOwned('webhook_subscriptions', {
      id: input.id, url: input.url, event_types: input.eventTypes, description: input.description, secret: input.sealedSecret,
      ...(input.maxPerSecond === undefined ? {} : { max_per_second: input.maxPerSecond }),
    }).returning('*');
    return toSubscription(row);
  }

  async list(page: Page): Promise<{ items: WebhookSubscription[]; total: number }> {
    const [rows, [{ count }]] = await Promise.all([
      this.live().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit).offset(page.offset),
      this.live().count({ count: '*' }),
    ]);
    return { items: rows.map(toSubscription), total: Number(count) };
  }

  async find(id: string): Promise<WebhookSubscription | null> {
    const row = await this.live().where({ id }).first();
    return row ? toSubscription(row) : null;
  }

  /** A deleted subscription waits for nothing any more. */
  async delete(id: string): Promise<boolean> {
    const deleted = (await this.live().where({ id }).update({ deleted_at: this.db.fn.now() })) > 0;
    if (deleted) await this.scoped('webhook_pending_events').where({ subscription_id: id }).delete();
    return deleted;
  }

  /**
   * The new secret replaces the current one, which signs beside it until `previous.until`, or not
   * at all when `previous` is null. Both arrive sealed with the newest key, so a rotation also
   * re-seals the one it keeps.
   */
  async rotateSecret(id: string, sealedSecret: string, previous: { sealed: string; until: Date } | null): Promise<WebhookSubscription | null> {
    const [row] = await this.live().where({ id })
      .update({ previous_secret: previous?.sealed ?? null, previous_secret_expires_at: previous?.until ?? null, secret: sealedSecret })
      .returning('*');
    return row ? toSubscription(row) : null;
  }

  /**
   * The outcome of one POST to the endpoint. A success clears the streak; a failure extends it,
   * and disables the endpoint once its first failure is `disableAfterMs` old. Answers the
   * subscription when this outcome disabled it.
   */
  async recordOutcome(id: string, delivered: boolean, at: Date, disableAfterMs: number): Promise<WebhookSubscription | null> {
    const outcome = delivered
      ? { last_success_at: at, failing_since: null, failure_streak: 0 }
      : { last_failure_at: at, failing_since: this.db.raw('coalesce(failing_since, ?)', [at]), failure_streak: this.db.raw('failure_streak + 1') };
    const [row] = await this.live().where({ id }).update(outcome).returning('*');
    if (!row || delivered || row.status !== 'enabled' || row.failing_since.getTime() > at.getTime() - disableAfterMs) return null;
    const [disabled] = await this.live().where({ id, status: 'enabled' })
      .update({ status: 'disabled', disabled_reason: DISABLED_FOR_FAILURES, disabled_at: at }).returning('*');
    return disabled ? toSubscription(disabled) : null;
  }

  /** Back on, with a clean streak: its next delivery decides its health afresh. */
  async enable(id: string): Promise<WebhookSubscription | null> {
    const [row] = await this.live().where({ id })
      .update({ status: 'enabled', disabled_reason: null, disabled_at: null, failing_since: null, failure_streak: 0 }).returning('*');
    return row ? toSubscription(row) : null;
  }

  /** The subscription locked until the transaction ends: a rotation reads and replaces its secret. */
  async findForUpdate(id: string): Promise<WebhookSubscription | null> {
    const row = await this.live().where({ id }).forUpdate().first();
    return row ? toSubscription(row) : null;
  }
}
