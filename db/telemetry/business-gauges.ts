import { Gauge } from 'prom-client';
import type { Knex } from 'knex';
import { LIFECYCLE_STATUSES } from '../../domain/operation-lifecycle';
import { StateFigure, SystemFiguresRepository } from '../repositories/system-figures';
import { registry } from './registry';

/** Prometheus scrapes every 15 s or so; several scrapers (or the console) within this share one read. */
const FRESH_MS = 5_000;
/** A frozen Postgres must not hold the scrape past Prometheus's timeout: the figures are then missing and `receivables_database_up` is 0. */
const READ_TIMEOUT_MS = 2_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timed out')), ms); });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

interface Snapshot { states: StateFigure[]; outboxPending: number; deliveriesRetrying: number }

let source: SystemFiguresRepository | undefined;
let last: { at: number; read: Promise<Snapshot | null> } | undefined;

function snapshot(): Promise<Snapshot | null> {
  if (!source) return Promise.resolve(null);
  const figures = source;
  if (!last || Date.now() - last.at > FRESH_MS) {
    last = {
      at: Date.now(),
      read: within(READ_TIMEOUT_MS, Promise.all([figures.operationsByState(), figures.outboxPending(), figures.deliveriesRetrying()]))
        .then(([states, outboxPending, deliveriesRetrying]) => ({ states, outboxPending, deliveriesRetrying }), () => null),
    };
  }
  return last.read;
}

const databaseUp = new Gauge({
  name: 'receivables_database_up',
  help: '1 when this process read its figures from Postgres at the last scrape, 0 when Postgres did not answer.',
  registers: [registry],
  async collect() {
    if (source) this.set((await snapshot()) ? 1 : 0);
  },
});

const operations = new Gauge({
  name: 'receivables_operations',
  help: 'Operations in each lifecycle state now, across originators.',
  labelNames: ['lifecycle_status'] as const,
  registers: [registry],
  async collect() {
    const read = await snapshot();
    if (!read) return this.reset();
    const counts = new Map(read.states.map((s) => [s.status, s.count]));
    for (const status of LIFECYCLE_STATUSES) this.set({ lifecycle_status: status }, counts.get(status) ?? 0);
  },
});

const oldest = new Gauge({
  name: 'receivables_operation_oldest_in_state_seconds',
  help: 'How long the operation longest in each lifecycle state has been in it (0 when none is).',
  labelNames: ['lifecycle_status'] as const,
  registers: [registry],
  async collect() {
    const read = await snapshot();
    if (!read) return this.reset();
    const ages = new Map(read.states.map((s) => [s.status, s.oldestSeconds]));
    for (const status of LIFECYCLE_STATUSES) this.set({ lifecycle_status: status }, ages.get(status) ?? 0);
  },
});

const outboxPending = new Gauge({
  name: 'receivables_outbox_pending',
  help: 'Workflow starts written to the outbox and not started yet.',
  registers: [registry],
  async collect() {
    const read = await snapshot();
    if (!read) return this.reset();
    this.set(read.outboxPending);
  },
});

const deliveriesRetrying = new Gauge({
  name: 'receivables_webhook_deliveries_retrying',
  help: 'Webhook deliveries (event and subscription) whose latest attempt failed and that wait for their next attempt.',
  registers: [registry],
  async collect() {
    const read = await snapshot();
    if (!read) return this.reset();
    this.set(read.deliveriesRetrying);
  },
});

/**
 * The figures read from Postgres at scrape time (operations per state and their oldest, the outbox
 * backlog, whether Postgres answered), served by the api processes from `db` until the returned
 * function is called. Every api serves the same figures: rules take their `max`.
 */
export function serveBusinessGauges(db: Knex): () => void {
  source = new SystemFiguresRepository(db);
  last = undefined;
  return () => {
    source = undefined;
    last = undefined;
    for (const gauge of [databaseUp, operations, oldest, outboxPending, deliveriesRetrying]) gauge.reset();
  };
}
