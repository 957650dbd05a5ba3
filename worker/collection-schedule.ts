import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import { collectionSweepScheduleId } from '../domain/workflow-ids';

/**
 * The hourly collection sweep as a Temporal Schedule, one per task queue, created by the first
 * worker of that queue that starts with collection on (the others find it). A run still going when
 * the next falls due is not doubled.
 */
export async function ensureCollectionSchedule(client: Client, config: Pick<Config, 'collection' | 'temporal'>, logger: Logger): Promise<void> {
  if (config.collection.callbackSecret === null) return;
  const scheduleId = collectionSweepScheduleId(config.temporal.taskQueue);
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '1h' }] },
      action: { type: 'startWorkflow', workflowType: 'collectionSweep', taskQueue: config.temporal.taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
    logger.info('collection sweep schedule created', { scheduleId });
  } catch (err) {
    // Not fatal: another worker (or the next start) creates it; the webhooks and staff's sweep work meanwhile.
    if (!(err instanceof ScheduleAlreadyRunning)) logger.warn('collection sweep schedule not created', { err: (err as Error).message });
  }
}
