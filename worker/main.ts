import { DefaultLogger, LogLevel, makeTelemetryFilterString, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, Config } from '../db/config';
import { createLogger, Logger } from '../db/logger';
import { createDb } from '../db/connection';
import { createActivities } from './activities';
import type { HostResolver } from '../domain/url-guard';
import { systemResolver } from '../activities/webhooks-http';
import { startWebhookDispatcher } from './webhook-dispatcher';
import { startOutboxRelay } from './outbox-relay';
import { encryptingDataConverter } from '../db/crypto/payload-codec';

export interface RunningWorker {
  worker: Worker;
  run: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The operations worker: the workflow bundle plus the activities, built from factories with the
 * real dependencies. The only place where those dependencies are wired together.
 */
const TEMPORAL_LEVELS: Record<string, LogLevel> = { error: 'ERROR', warn: 'WARN', info: 'INFO', debug: 'DEBUG' };
let runtimeInstalled = false;

/** The SDK logs through our logger, at our level (once per process: the runtime is global). */
function installRuntime(logger: Logger, level: string): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    logger: new DefaultLogger(TEMPORAL_LEVELS[level] ?? 'INFO', (entry) => logger.log(entry.level.toLowerCase() === 'trace' ? 'debug' : entry.level.toLowerCase(), entry.message, entry.meta)),
    telemetryOptions: { logging: { forward: {}, filter: makeTelemetryFilterString({ core: TEMPORAL_LEVELS[level] ?? 'INFO' }) } },
  });
}

export async function startWorker(config: Config, options: { resolveHost?: HostResolver } = {}): Promise<RunningWorker> {
  const logger = createLogger(config.logLevel, 'worker');
  installRuntime(logger, config.logLevel);
  const db = createDb(config.databaseUrl, Math.min(config.db.poolMax, 20));
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  // One converter for the worker and the relay's and dispatcher's client: payloads sealed both ways.
  const dataConverter = encryptingDataConverter(config.payloadKeys);
  const worker = await Worker.create({
    connection,
    dataConverter,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities({ db, config, logger, resolveHost: options.resolveHost ?? systemResolver }),
    // A task for a workflow cached on a worker that died waits this long before any worker may take
    // it (10 s by default): an approval or payer payment arriving then must still fit the api's
    // 20 s update deadline. Workflows here are short to replay, so falling back early costs little.
    stickyQueueScheduleToStartTimeout: '3s',
  });
  const run = worker.run();
  const client = new Client({ connection: await Connection.connect({ address: config.temporal.address }), namespace: config.temporal.namespace, dataConverter });
  const dispatcher = startWebhookDispatcher({ db, client, config, logger });
  const relay = startOutboxRelay({ db, client, config, logger });
  return {
    worker,
    run,
    async stop() {
      await dispatcher.stop();
      await relay.stop();
      await client.connection.close();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await run.catch(() => undefined);
      await connection.close();
      await db.destroy();
    },
  };
}

if (require.main === module) {
  startWorker(loadConfig()).then((w) => {
    process.stdout.write(`worker polling task queue ${w.worker.options.taskQueue}\n`);
    const stop = () => { w.stop().finally(() => process.exit(0)); };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }).catch((err) => {
    process.stderr.write(`worker failed to start: ${(err as Error).stack}\n`);
    process.exit(1);
  });
}
