import { temporal } from '@temporalio/proto';

const { EventType } = temporal.api.enums.v1;

/**
 * Real time a workflow task may stay started, the last event of its run, before the test server is
 * known to have lost it. A server times a task out after the workflow task timeout (10 s, which the
 * model's workflows keep) and schedules another. The Java test server (1.38.0) does neither once it
 * has refused the task's completion for cancelling a timer that fired in real time during the task
 * (sdk-java issues #3088 and #2606): the history ends "TIMER_STARTED, …, WORKFLOW_EXECUTION_SIGNALED,
 * WORKFLOW_TASK_SCHEDULED, WORKFLOW_TASK_STARTED" and the run waits for good. Twice the timeout, so
 * a server merely slow to time a task out on a loaded machine is not taken for one that lost it.
 */
export const WEDGED_TASK_MS = 20_000;

/**
 * The test server lost a workflow task. Neither the workflow's defect (the real server fails such a
 * completion and schedules the task again) nor the interleaving's: it takes a timer firing in real
 * time while a task runs.
 */
export class WedgedTaskError extends Error {}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Since when each workflow's latest run has ended on the same started workflow task, as seen by the checks at rest. */
export class StartedTaskWatch {
  private readonly started = new Map<string, { task: string; since: number }>();

  /** Throws WedgedTaskError when `workflowId`'s history has ended on one started workflow task for longer than WEDGED_TASK_MS. */
  observe(workflowId: string, events: HistoryEvent[], now = Date.now()): void {
    const last = events[events.length - 1];
    if (last?.eventType !== EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
      this.started.delete(workflowId);
      return;
    }
    // A run continued as new starts its event ids again: the event's time tells its tasks apart.
    const task = `${String(last.eventId)}@${String(last.eventTime?.seconds)}.${last.eventTime?.nanos ?? 0}`;
    const seen = this.started.get(workflowId);
    if (seen?.task !== task) {
      this.started.set(workflowId, { task, since: now });
      return;
    }
    if (now - seen.since > WEDGED_TASK_MS) {
      throw new WedgedTaskError(`${workflowId}: its workflow task (event ${String(last.eventId)}) has been started for ${now - seen.since} ms, neither completed nor timed out: the test server lost it (sdk-java #3088)`);
    }
  }
}
