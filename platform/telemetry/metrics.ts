import { Counter, Gauge, Histogram } from 'prom-client';
import type { Knex } from 'knex';
import { registry } from './registry';

/**
 * The process's metrics, named after OpenTelemetry's semantic conventions where one exists
 * (database client pool) and `receivables_` for the business. One registry per process, as
 * the Temporal runtime is: counters count what this process did, and the scrape of its loopback
 * listener (platform/telemetry/metrics-server.ts) reads them. Every label takes its values from a closed
 * set (states, outcomes, cache names): nothing a request carries becomes a label.
 */

/** Webhook lag runs from milliseconds (first attempt) to hours (the retry schedule). */
const LAG_BUCKETS = [0.1, 0.5, 1, 5, 30, 60, 300, 1800, 7200, 18000, 36000, 86400];

export const operationTransitions = new Counter({
  name: 'receivables_operation_transitions_total',
  help: 'Operations that entered a lifecycle state (creation included), counted once per move committed.',
  labelNames: ['to'] as const,
  registers: [registry],
});

export const pixDisbursements = new Counter({
  name: 'receivables_pix_disbursements_total',
  help: 'PIX disbursements by outcome: ordered at the provider, settled, rejected (refused, or lost by the provider).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: 'receivables_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: delivered, failed (to be retried), given_up (the last attempt failed).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookDeliveryLag = new Histogram({
  name: 'receivables_webhook_delivery_lag_seconds',
  help: 'From the event to its successful delivery to a subscription, retries included.',
  buckets: LAG_BUCKETS,
  registers: [registry],
});

export const titlesOverdue = new Counter({
  name: 'receivables_titles_overdue_total',
  help: 'Titles that turned OVERDUE (their deadline passed unpaid).',
  registers: [registry],
});

/**
 * Collection by PIX: charges issued, paid (in full), expired and refunded, and the
 * payments applied, by how they were found: `webhook`, or `sweep` when the webhook missed them
 * (the `PixWebhookMissed` alert).
 */
export const pixCharges = new Counter({
  name: 'receivables_pix_charges_total',
  help: 'Collection PIX charges by outcome: issued, paid, expired, removed, refunded.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const pixCollectionPayments = new Counter({
  name: 'receivables_pix_collection_payments_total',
  help: 'Payer PIX payments applied to titles, by what found them: webhook or sweep.',
  labelNames: ['found_by'] as const,
  registers: [registry],
});

/**
 * The checks of NF-e at SEFAZ: every answer asked for (none given again from the per-key limit), by
 * service (`consult`, `distribution`) and outcome: the consult's and the distribution's outcomes
 * (domain/sefaz/status-codes.ts), or `unavailable` when no usable answer came. `misrouted` (226) is
 * our own routing defect (`SefazMisrouted`), `throttled` (656) a key asked too often (`SefazThrottled`).
 */
export const sefazAnswers = new Counter({
  name: 'receivables_sefaz_answers_total',
  help: 'SEFAZ answers by service (consult, distribution) and outcome (authorized, cancelled, ..., found, none, outage, throttled, misrouted, unavailable).',
  labelNames: ['service', 'outcome'] as const,
  registers: [registry],
});

/**
 * Each time registering an operation's acts (or cancelling them) at the escriturador got no
 * answer and is retried: `unavailable` (unreachable, 5xx, timeout), `refused` (a request it
 * refused other than a negotiation's refusal). While it grows, operations wait in SIGNED (`RegistrationWaiting`).
 */
export const registrationWaits = new Counter({
  name: 'receivables_registration_waits_total',
  help: 'Escriturador calls of the registration before the PIX (or of cancelling acts) that got no answer and are retried, by reason (unavailable, refused).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const cacheRequests = new Counter({
  name: 'receivables_cache_requests_total',
  help: 'Reads of the api\'s reference caches, by cache and result (hit, miss).',
  labelNames: ['cache', 'result'] as const,
  registers: [registry],
});

/** Pools this process reads Postgres through, by pool name (`api`, `worker`); several of one name add up. */
const pools = new Map<Knex, string>();

type Tarn = { numUsed(): number; numFree(): number; numPendingAcquires(): number };
const tarnOf = (db: Knex): Tarn | undefined => (db.client as { pool?: Tarn }).pool;

function sumPools(read: (pool: Tarn) => number): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [db, name] of pools) {
    const pool = tarnOf(db);
    sums.set(name, (sums.get(name) ?? 0) + (pool ? read(pool) : 0));
  }
  return sums;
}

new Gauge({
  name: 'db_client_connection_count',
  help: 'Connections of the Postgres pool by state (used, idle).',
  labelNames: ['db_client_connection_pool_name', 'db_client_connection_state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [name, used] of sumPools((pool) => pool.numUsed())) this.set({ db_client_connection_pool_name: name, db_client_connection_state: 'used' }, used);
    for (const [name, idle] of sumPools((pool) => pool.numFree())) this.set({ db_client_connection_pool_name: name, db_client_connection_state: 'idle' }, idle);
  },
});

new Gauge({
  name: 'db_client_connection_pending_requests',
  help: 'Requests waiting for a connection of the Postgres pool.',
  labelNames: ['db_client_connection_pool_name'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [name, waiting] of sumPools((pool) => pool.numPendingAcquires())) this.set({ db_client_connection_pool_name: name }, waiting);
  },
});

/** The pool's gauges follow `db` until the returned function is called (when it is destroyed). */
export function watchPool(db: Knex, name: string): () => void {
  pools.set(db, name);
  return () => { pools.delete(db); };
}

/**
 * Runs `count` once the transaction `db` belongs to commits (at once when `db` is no transaction),
 * so a move rolled back, and retried, is counted once.
 */
export function afterCommit(db: Knex, count: () => void): void {
  if (!db.isTransaction) return count();
  (db as Knex.Transaction).executionPromise.then(count, () => undefined);
}

/**
 * What reconciling the PSP accounts against their statements found, by PSP and kind
 * (`missing_in_ledger`, `missing_at_psp`, `amount_differs`, `closing_balance_differs`): the
 * `LedgerReconciliationMismatch` alert.
 */
export const registrationReconciliationMismatches = new Counter({
  name: 'receivables_registration_reconciliation_mismatches_total',
  help: 'Differences between our acts and the escriturador\'s records found by the registration reconciliation, by kind.',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const ledgerReconciliationMismatches = new Counter({
  name: 'receivables_ledger_reconciliation_mismatches_total',
  help: 'Mismatches between a PSP statement and the ledger found by reconciliation, by PSP and kind.',
  labelNames: ['psp', 'kind'] as const,
  registers: [registry],
});
