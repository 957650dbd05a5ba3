import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy, type ScheduleSpec } from '@temporalio/client';
import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import {
  auditCheckpointScheduleId, collectionSweepScheduleId, ledgerAccrualScheduleId, ledgerReconciliationScheduleId, registrationReconciliationScheduleId, titleNfeRecheckScheduleId,
} from '../domain/workflow-ids';

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

interface ScheduleEntry {
  scheduleId: (taskQueue: string) => string;
  workflowType: string;
  spec: ScheduleSpec;
  /** Whether this deployment runs it at all. */
  wanted?: (config: Pick<Config, 'collection'>) => boolean;
}

const daily = (offset: `${number}m`): ScheduleSpec => ({ intervals: [{ every: '1d', offset }] });

/** Every Schedule the worker keeps, in the order the day runs them (UTC offsets past midnight). */
const SCHEDULES: readonly ScheduleEntry[] = [
  // The hourly collection sweep, when collection is on.
  { scheduleId: collectionSweepScheduleId, workflowType: 'collectionSweep', spec: { intervals: [{ every: '1h' }] }, wanted: (config) => config.collection.callbackSecret !== null },
  // The hourly signed checkpoint of the audit chain; an admin can make one on demand meanwhile.
  { scheduleId: auditCheckpointScheduleId, workflowType: 'auditCheckpointRun', spec: { intervals: [{ every: '1h' }] } },
  // The daily accrual, just after midnight in São Paulo (03:10 UTC), when the business date has turned.
  { scheduleId: ledgerAccrualScheduleId, workflowType: 'ledgerAccrual', spec: daily('190m') },
  // The daily re-check of open titles' NF-e at SEFAZ (04:10 UTC), after the accrual and before the business day.
  { scheduleId: titleNfeRecheckScheduleId, workflowType: 'titleNfeRecheck', spec: daily('250m') },
  // The daily reconciliation of yesterday against the PSPs' statements (04:40 UTC, once the PSPs have closed
  // their day), which closes the date when it finds nothing.
  { scheduleId: ledgerReconciliationScheduleId, workflowType: 'ledgerReconciliation', spec: daily('280m') },
  // The daily comparison of our acts with the escriturador's (05:10 UTC), once the day's settlements are in.
  { scheduleId: registrationReconciliationScheduleId, workflowType: 'registrationReconciliation', spec: daily('310m') },
];

/** Creates every Schedule this deployment runs on the worker's task queue (the ones that exist stay as they are). */
export async function ensureSchedules(client: Client, config: Pick<Config, 'collection' | 'temporal'>, logger: Logger): Promise<void> {
  const { taskQueue } = config.temporal;
  for (const entry of SCHEDULES) {
    if (entry.wanted && !entry.wanted(config)) continue;
    await ensureSchedule(client, taskQueue, { scheduleId: entry.scheduleId(taskQueue), workflowType: entry.workflowType, spec: entry.spec }, logger);
  }
}
