import { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig, Config } from '../api/config';
import { createLogger } from '../api/logger';
import { createDb } from '../db/connection';
import { createActivities } from './activities';

export interface RunningWorker {
  worker: Worker;
  run: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The operations worker: the workflow bundle plus the activities, built from factories with the
 * real dependencies. The only place where those dependencies are wired together.
 */
export async function startWorker(config: Config): Promise<RunningWorker> {
  const logger = createLogger(config.logLevel, 'worker');
  const db = createDb(config.databaseUrl, Math.min(config.db.poolMax, 20));
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities({ db, config, logger }),
  });
  const run = worker.run();
  return {
    worker,
    run,
    async stop() {
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
