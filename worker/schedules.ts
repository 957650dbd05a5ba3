import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy, type ScheduleSpec } from '@temporalio/client';
import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import { auditCheckpointScheduleId, collectionSweepScheduleId, ledgerAccrualScheduleId, ledgerReconciliationScheduleId, titleNfeRecheckScheduleId } from '../domain/workflow-ids';

/**
 * A Temporal Schedule of one workflow, one per task queue, created by the first worker of that
 * queue that starts (the others find it). A run still going when the next falls due is not doubled.
 */
async function ensureSchedule(client: Client, taskQueue: string, schedule: { scheduleId: string; workflowType: string; spec: ScheduleSpec }, logger: Logger): Promise<void> {
  const { scheduleId, workflowType, spec } = schedule;
  try {
    await client.schedule.create({
      scheduleId, spec,
      action: { type: 'startWorkflow', workflowType, taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
    logger.info('schedule created', { scheduleId });
  } catch (err) {
    // Not fatal: another worker (or the next start) creates it; what it runs can also be asked for by hand meanwhile.
    if (!(err instanceof ScheduleAlreadyRunning)) logger.warn('schedule not created', { scheduleId, err: (err as Error).message });
  }
}

/** The hourly collection sweep, when collection is on. */
export async function ensureCollectionSchedule(client: Client, config: Pick<Config, 'collection' | 'temporal'>, logger: Logger): Promise<void> {
  if (config.collection.callbackSecret === null) return;
  const { taskQueue } = config.temporal;
  await ensureSchedule(client, taskQueue, { scheduleId: collectionSweepScheduleId(taskQueue), workflowType: 'collectionSweep', spec: { intervals: [{ every: '1h' }] } }, logger);
}

/** The daily accrual, just after midnight in São Paulo (03:10 UTC), when the business date has turned. */
export async function ensureLedgerAccrualSchedule(client: Client, config: Pick<Config, 'temporal'>, logger: Logger): Promise<void> {
  const { taskQueue } = config.temporal;
  await ensureSchedule(client, taskQueue, {
    scheduleId: ledgerAccrualScheduleId(taskQueue), workflowType: 'ledgerAccrual', spec: { intervals: [{ every: '1d', offset: '190m' }] },
  }, logger);
}

/**
 * The daily reconciliation of yesterday's business date against the PSPs' statements (04:40 UTC,
 * 01:40 in São Paulo: after the accrual, once the PSPs have closed their day), which closes the
 * date when it finds nothing.
 */
export async function ensureLedgerReconciliationSchedule(client: Client, config: Pick<Config, 'temporal'>, logger: Logger): Promise<void> {
  const { taskQueue } = config.temporal;
  await ensureSchedule(client, taskQueue, {
    scheduleId: ledgerReconciliationScheduleId(taskQueue), workflowType: 'ledgerReconciliation', spec: { intervals: [{ every: '1d', offset: '280m' }] },
  }, logger);
}

/** The hourly signed checkpoint of the audit chain; an admin can make one on demand meanwhile. */
export async function ensureAuditCheckpointSchedule(client: Client, config: Pick<Config, 'temporal'>, logger: Logger): Promise<void> {
  const { taskQueue } = config.temporal;
  await ensureSchedule(client, taskQueue, { scheduleId: auditCheckpointScheduleId(taskQueue), workflowType: 'auditCheckpointRun', spec: { intervals: [{ every: '1h' }] } }, logger);
}

/** The daily re-check of open titles' NF-e at SEFAZ, at 04:10 UTC, after the accrual and before the business day. */
export async function ensureTitleNfeRecheckSchedule(client: Client, config: Pick<Config, 'temporal'>, logger: Logger): Promise<void> {
  const { taskQueue } = config.temporal;
  await ensureSchedule(client, taskQueue, {
    scheduleId: titleNfeRecheckScheduleId(taskQueue), workflowType: 'titleNfeRecheck', spec: { intervals: [{ every: '1d', offset: '250m' }] },
  }, logger);
}
