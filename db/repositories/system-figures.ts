import type { Knex } from 'knex';
import type { LifecycleStatus } from '../../domain/operation-lifecycle';

export interface StateFigure {
  status: LifecycleStatus;
  count: number;
  /** How long the operation longest in this state has been in it. */
  oldestSeconds: number;
}

/**
 * The figures operators watch, read across originators at each scrape. `updated_at` is when an
 * operation last moved (the workflow's read-model writes touch it on transitions only).
 */
export class SystemFiguresRepository {
  constructor(private readonly db: Knex) {}

  async operationsByState(): Promise<StateFigure[]> {
    const rows: { status: LifecycleStatus; count: string; oldest: string }[] = await this.db('operations')
      .select('lifecycle_status as status')
      .count('* as count')
      .select(this.db.raw('extract(epoch from now() - min(updated_at)) as oldest'))
      .groupBy('lifecycle_status');
    return rows.map((row) => ({ status: row.status, count: Number(row.count), oldestSeconds: Math.max(0, Number(row.oldest)) }));
  }

  /** Deliveries (event × subscription) whose latest attempt failed and that wait for their next attempt. */
  async deliveriesRetrying(): Promise<number> {
    const [{ count }] = await this.db
      .from(this.db('webhook_deliveries').distinctOn('subscription_id', 'event_id')
        .select('delivered_successfully', 'next_retry_at').orderBy([{ column: 'subscription_id' }, { column: 'event_id' }, { column: 'attempt_number', order: 'desc' }]).as('latest'))
      .where('delivered_successfully', false).whereNotNull('next_retry_at').count('* as count');
    return Number(count);
  }

  async outboxPending(): Promise<number> {
    const [{ count }] = await this.db('workflow_outbox').whereNull('started_at').count('* as count');
    return Number(count);
  }
}
