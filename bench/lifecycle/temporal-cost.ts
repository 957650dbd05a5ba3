import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/**
 * What one workflow costs the Temporal server, read from its history: workflow tasks, activity
 * tasks, local activities (markers), child workflows, timers, signals, updates, search-attribute
 * upserts, and every event. Runs that continued as new are followed back to the first one.
 */
export interface HistoryCost {
  runs: number;
  events: number;
  workflowTasks: number;
  activities: number;
  localActivities: number;
  children: number;
  timers: number;
  signals: number;
  updates: number;
  upserts: number;
}

const EventType = temporal.api.enums.v1.EventType;

export const emptyCost = (): HistoryCost => ({
  runs: 0, events: 0, workflowTasks: 0, activities: 0, localActivities: 0, children: 0, timers: 0, signals: 0, updates: 0, upserts: 0,
});

export function addCost(into: HistoryCost, more: HistoryCost, times = 1): HistoryCost {
  for (const key of Object.keys(into) as (keyof HistoryCost)[]) into[key] += more[key] * times;
  return into;
}

export async function historyCost(client: Client, workflowId: string): Promise<HistoryCost> {
  const cost = emptyCost();
  let runId: string | undefined;
  for (;;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    cost.runs += 1;
    cost.events += events.length;
    for (const event of events) {
      switch (event.eventType) {
        case EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED: cost.workflowTasks += 1; break;
        case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: cost.activities += 1; break;
        case EventType.EVENT_TYPE_MARKER_RECORDED:
          if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity') cost.localActivities += 1;
          break;
        case EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED: cost.children += 1; break;
        case EventType.EVENT_TYPE_TIMER_STARTED: cost.timers += 1; break;
        case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: cost.signals += 1; break;
        case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED: cost.updates += 1; break;
        case EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: cost.upserts += 1; break;
        default: break;
      }
    }
    const previous = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!previous) return cost;
    runId = previous;
  }
}

export async function connectClient(address: string): Promise<Client> {
  return new Client({ connection: await Connection.connect({ address }), namespace: 'default' });
}

/** EVENT_TYPE_ACTIVITY_TASK_SCHEDULED → ActivityTaskScheduled. */
export function temporalEventName(type: temporal.api.enums.v1.EventType | null | undefined): string {
  const name = EventType[type ?? 0] ?? String(type);
  return name.replace(/^EVENT_TYPE_/, '').toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}
