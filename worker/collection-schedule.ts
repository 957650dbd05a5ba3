import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import { auditCheckpointScheduleId, collectionSweepScheduleId } from '../domain/workflow-ids';

/**
 * An hourly Temporal Schedule of `workflowType`, one per task queue, created by the first worker of
 * that queue that starts (the others find it). A run still going when the next falls due is not
 * doubled. Not fatal when it fails: another worker, or the next start, creates it.
 */
async function ensureHourlySchedule(client: Client, scheduleId: string, workflowType: string, taskQueue: string, logger: Logger): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '1h' }] },
      action: { type: 'startWorkflow', workflowType, taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
    logger.info('schedule created', { scheduleId });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) logger.warn('schedule not created', { scheduleId, err: (err as Error).message });
  }
}

/** The hourly collection sweep, when collection is on; the webhooks and staff's sweep work while it is missing. */
export async function ensureCollectionSchedule(client: Client, config: Pick<Config, 'collection' | 'temporal'>, logger: Logger): Promise<void> {
  if (config.collection.callbackSecret === null) return;
  await ensureHourlySchedule(client, collectionSweepScheduleId(config.temporal.taskQueue), 'collectionSweep', config.temporal.taskQueue, logger);
}

/** The hourly signed checkpoint of the audit chain (issue #45); an admin can make one on demand meanwhile. */
export async function ensureAuditCheckpointSchedule(client: Client, config: Pick<Config, 'temporal'>, logger: Logger): Promise<void> {
  await ensureHourlySchedule(client, auditCheckpointScheduleId(config.temporal.taskQueue), 'auditCheckpointRun', config.temporal.taskQueue, logger);
}
