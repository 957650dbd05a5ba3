import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import { relayPending } from '../activities/outbox-start';

/** Starts the workflows whose api process died between commit and start (DESIGN.md §4). */
export function startOutboxRelay({ db, client, config, logger }: { db: Knex; client: Client; config: Config; logger: Logger }) {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      const started = await relayPending(db, client, config.temporal.taskQueue, config.outbox.relayAfterMs);
      if (started > 0) logger.info('outbox relay started workflows', { count: started });
    } catch (err) {
      logger.warn('outbox relay failed', { err: (err as Error).message });
    }
  };
  const timer = setInterval(() => {
    if (!stopped) running = running.then(tick);
  }, config.outbox.relayIntervalMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
