import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import { listen } from '../db/listener';
import { claimUndispatched, DeliveryPair, markDispatched } from '../db/repositories/webhooks-dispatch';
import { startOnce } from '../activities/workflow-start';
import { continueTrace } from '../platform/telemetry/trace-context';
import { deliveryStart } from '../workflows/webhook-delivery';

/**
 * Fans recorded events out to webhook deliveries: one workflow per (event, subscription of that
 * event's originator), then marks the event dispatched. Woken by Postgres NOTIFY when an event
 * row commits, so the first attempt follows within milliseconds; the interval only catches what
 * a lost connection missed. Several workers may run it: rows are claimed with SKIP LOCKED and
 * starts are idempotent, so a re-run never starts a delivery twice.
 */
export interface DispatcherDeps {
  db: Knex;
  client: Client;
  config: Config;
  logger: Logger;
}

export interface RunningDispatcher {
  stop(): Promise<void>;
}

const BATCH = 200;
const CHANNEL = 'events_recorded';
const RECONNECT_MS = 1_000;

async function startDelivery({ client, config }: DispatcherDeps, { traceparent, ...pair }: DeliveryPair): Promise<void> {
  // Once per (event, subscription): a second dispatch of the same event must not deliver it again.
  const start = deliveryStart({ ...pair, retryScheduleMs: config.webhooks.retryScheduleMs, timeoutMs: config.webhooks.timeoutMs });
  // The delivery belongs to the trace that recorded the event (the creating request, or the activity that moved the operation).
  await continueTrace(traceparent, () => startOnce(client, 'webhookDelivery', { ...start, taskQueue: config.temporal.taskQueue }));
}

/** One claimed batch; a failed start rolls the batch back and the next pass retries it. */
export async function dispatchBatch(deps: DispatcherDeps): Promise<number> {
  return deps.db.transaction(async (trx) => {
    const { eventIds, pairs, held } = await claimUndispatched(trx, BATCH);
    await Promise.all(pairs.map((pair) => startDelivery(deps, pair)));
    if (eventIds.length > 0) await markDispatched(trx, eventIds, [...pairs, ...held]);
    return eventIds.length;
  });
}

export function startWebhookDispatcher(deps: DispatcherDeps): RunningDispatcher {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const drain = async (): Promise<void> => {
    let full: boolean;
    do {
      again = false;
      full = (await dispatchBatch(deps)) === BATCH;
    } while ((full || again) && !stopped);
  };
  // Notifications that arrive mid-pass coalesce into one more pass.
  const kick = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((err) => { deps.logger.warn('webhook dispatch pass failed', { err: (err as Error).message }); })
      .finally(() => { running = null; });
  };

  // Every (re)connect also triggers a pass: what was recorded while the connection was down.
  const listener = listen({
    databaseUrl: deps.config.databaseUrl, channel: CHANNEL, applicationName: 'webhook-dispatcher', reconnectMs: RECONNECT_MS,
    onNotify: kick,
    onConnect: kick,
    onLost: (err) => deps.logger.warn('webhook dispatcher has no LISTEN connection; retrying', { err: err?.message }),
  });
  const timer = setInterval(kick, deps.config.outbox.relayIntervalMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await listener.close();
      await running;
    },
  };
}
