import { Gauge } from 'prom-client';
import type { Knex } from 'knex';
import { LIFECYCLE_STATUSES } from '../domain/operation-lifecycle';
import { StateFigure, SystemFiguresRepository } from './repositories/system-figures';
import { registry } from '../platform/telemetry/registry';

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

/** The api instances of this process serving the figures (tests start several); the latest one reads. */
const sources: SystemFiguresRepository[] = [];
let last: { at: number; read: Promise<Snapshot | null> } | undefined;

function snapshot(): Promise<Snapshot | null> {
  const figures = sources.at(-1);
  if (!figures) return Promise.resolve(null);
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
    if (sources.length > 0) this.set((await snapshot()) ? 1 : 0);
  },
});

/** A gauge per lifecycle state, from the snapshot; absent while Postgres does not answer. */
function perState(name: string, help: string, pick: (figure: StateFigure) => number): Gauge<'lifecycle_status'> {
  return new Gauge({
    name, help, labelNames: ['lifecycle_status'] as const, registers: [registry],
    async collect() {
      const read = await snapshot();
      if (!read) return this.reset();
      const values = new Map(read.states.map((figure) => [figure.status, pick(figure)]));
      for (const status of LIFECYCLE_STATUSES) this.set({ lifecycle_status: status }, values.get(status) ?? 0);
    },
  });
}

/** One figure of the snapshot; absent while Postgres does not answer. */
function single(name: string, help: string, pick: (read: Snapshot) => number): Gauge {
  return new Gauge({
    name, help, registers: [registry],
    async collect() {
      const read = await snapshot();
      if (!read) return this.reset();
      this.set(pick(read));
    },
  });
}

const operations = perState('receivables_operations', 'Operations in each lifecycle state now, across originators.', (figure) => figure.count);
const oldest = perState('receivables_operation_oldest_in_state_seconds', 'How long the operation longest in each lifecycle state has been in it (0 when none is).', (figure) => figure.oldestSeconds);
const outboxPending = single('receivables_outbox_pending', 'Workflow starts written to the outbox and not started yet.', (read) => read.outboxPending);
const deliveriesRetrying = single('receivables_webhook_deliveries_retrying', 'Webhook deliveries (event and subscription) whose latest attempt failed and that wait for their next attempt.', (read) => read.deliveriesRetrying);

/**
 * The figures read from Postgres at scrape time (operations per state and their oldest, the outbox
 * backlog, the deliveries failing, whether Postgres answered), served by the api processes from `db` until the returned
 * function is called. Every api serves the same figures: rules take their `max`.
 */
export function serveBusinessGauges(db: Knex): () => void {
  const source = new SystemFiguresRepository(db);
  sources.push(source);
  last = undefined;
  return () => {
    sources.splice(sources.indexOf(source), 1);
    last = undefined;
    if (sources.length > 0) return;
    for (const gauge of [databaseUp, operations, oldest, outboxPending, deliveriesRetrying]) gauge.reset();
  };
}
