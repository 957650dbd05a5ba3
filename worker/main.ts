import { NativeConnection, Worker } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { ensureSchedules } from './schedules';
import { registerRegistrarWebhook } from './registrar-webhook';
import { loadConfig, Config, DEFAULT_METRICS_PORTS } from '../platform/config/config';
import { createLogger, failureText } from '../platform/logger';
import { createDb } from '../db/connection';
import { createActivities } from './activities';
import type { HostResolver } from '../domain/url-guard';
import { systemResolver } from '../providers/webhooks-http';
import { startWebhookDispatcher } from './webhook-dispatcher';
import { startOutboxRelay } from './outbox-relay';
import { encryptingDataConverter } from '../platform/crypto/payload-codec';
import { installRuntime } from './runtime';
import { startMetricsServer } from '../platform/telemetry/metrics-server';
import { watchPool } from '../platform/telemetry/metrics';
import { startTracing } from '../platform/telemetry/tracing';
import { tracingOptions } from './tracing';
import { workflowBundle } from './workflow-bundle';

const SHUTDOWN_FORCE_TIME = '10s';

export interface RunningWorker {
  worker: Worker;
  run: Promise<void>;
  /** Where this process's metrics are scraped. */
  metricsUrl: string;
  stop(): Promise<void>;
}

/**
 * The operations worker: the workflow bundle plus the activities, built from factories with the
 * real dependencies. The only place where those dependencies are wired together.
 */
export async function startWorker(config: Config, options: { resolveHost?: HostResolver } = {}): Promise<RunningWorker> {
  const tracing = startTracing(config.tracing, 'receivables-worker');
  const logger = createLogger(config.logLevel, 'worker');
  const traced = tracingOptions(tracing);
  const temporalMetrics = await installRuntime(logger, config.logLevel);
  const db = createDb(config.databaseUrl, Math.min(config.db.poolMax, 20), null, logger);
  const unwatchPool = watchPool(db, 'worker');
  const metrics = await startMetricsServer(config.metrics.host, config.metrics.port ?? DEFAULT_METRICS_PORTS.worker, [temporalMetrics]);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  // One converter for the worker and the relay's and dispatcher's client: payloads sealed both ways.
  const dataConverter = encryptingDataConverter(config.payloadKeys);
  const { workflowModules = [], ...interceptors } = traced.worker.interceptors ?? {};
  const worker = await Worker.create({
    connection,
    dataConverter,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowBundle: await workflowBundle(workflowModules, dataConverter.failureConverterPath),
    activities: createActivities({ db, config, logger, resolveHost: options.resolveHost ?? systemResolver }),
    // A task for a workflow cached on a worker that died waits this long before any worker may take
    // it (10 s by default): an approval or payer payment arriving then must still fit the api's
    // 20 s update deadline. Workflows here are short to replay, so falling back early costs little.
    stickyQueueScheduleToStartTimeout: '3s',
    // A stop must end: a poll the server never completes kept a stopping worker DRAINING for over a
    // minute (seen in the suite, all tasks done and polls outstanding). Workflow tasks and
    // activities are retried elsewhere, so giving up on one here loses nothing.
    shutdownForceTime: SHUTDOWN_FORCE_TIME,
    ...traced.worker,
    interceptors,
  });
  const run = worker.run();
  // The relay's and dispatcher's client shares the worker's native connection, so the runtime's metrics count its calls too.
  const client = new Client({ connection, namespace: config.temporal.namespace, dataConverter, ...traced.client });
  await ensureSchedules(client, config, logger);
  const dispatcher = startWebhookDispatcher({ db, client, config, logger });
  const relay = startOutboxRelay({ db, client, config, logger });
  // After the dispatcher and the relay: an escriturador down holds this call to its timeout.
  await registerRegistrarWebhook(config, logger);
  return {
    worker,
    run,
    metricsUrl: metrics.url,
    async stop() {
      await dispatcher.stop();
      await relay.stop();
      await metrics.close();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await run.catch(() => undefined);
      await connection.close().catch((err: unknown) => logger.warn('temporal connection left open at stop', { error: String(err) }));
      unwatchPool();
      await db.destroy();
    },
  };
}

if (require.main === module) {
  startWorker(loadConfig()).then((w) => {
    process.stdout.write(`worker polling task queue ${w.worker.options.taskQueue}, metrics on ${w.metricsUrl}\n`);
    const stop = () => { w.stop().finally(() => process.exit(0)); };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }).catch((err) => {
    process.stderr.write(`worker failed to start: ${failureText(err)}\n`);
    process.exit(1);
  });
}
