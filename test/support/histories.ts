import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { operationWorkflowId } from '../../domain/workflow-ids';
import { temporal } from './temporal';

/** Recorded lifecycle histories, replayed by test/workflows/replay.test.ts against the current workflow code. */
export const HISTORIES_DIR = join(__dirname, '..', 'workflows', 'histories');

/**
 * The lifecycle tests drive each path; with RECORD_HISTORIES=1 (`npm run histories:record`) they
 * also save the history of the operation's workflow: `<name>.json` for its first run and
 * `<name>.run<n>.json` for each run it continued as. Otherwise nothing: a test run never rewrites
 * the committed histories.
 */
export async function recordHistory(name: string, operationId: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const client = await temporal();
  const runs = [];
  // From the latest run back: each run's start names the run it continued.
  for (let runId: string | undefined; ;) {
    const history = await client.workflow.getHandle(operationWorkflowId(operationId), runId).fetchHistory();
    runs.unshift(history);
    runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
    if (!runId) break;
  }
  mkdirSync(HISTORIES_DIR, { recursive: true });
  runs.forEach((history, i) => writeFileSync(join(HISTORIES_DIR, `${name}${i === 0 ? '' : `.run${i + 1}`}.json`), `${historyToJSON(history)}\n`));
}
