import { proxyActivities } from '@temporalio/workflow';
import type { createAuditCheckpointActivities } from '../activities/audit-checkpoint';

const { auditCheckpoint } = proxyActivities<ReturnType<typeof createAuditCheckpointActivities>>({
  startToCloseTimeout: '1m',
  // The next hour's run signs the head again: a few tries are enough.
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 5 },
});

/** One run of the hourly audit checkpoint: the checkpoint made, null while the trail is empty. */
export async function auditCheckpointRun(): Promise<{ id: string; seq: number } | null> {
  return auditCheckpoint();
}
