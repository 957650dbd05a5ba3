// Trivial workflows for bench/lifecycle/temporal-floor.ts: the least each Temporal feature costs.
import { condition, proxyActivities, proxyLocalActivities, startChild, workflowInfo } from '@temporalio/workflow';

type Noop = { noop(): Promise<string> };
const remote = proxyActivities<Noop>({ startToCloseTimeout: '10s' });
const local = proxyLocalActivities<Noop>({ startToCloseTimeout: '10s' });

/** Start, one workflow task, done. */
export async function emptyWorkflow(): Promise<string> {
  return 'done';
}

/** Start → activity task → second workflow task → done. */
export async function oneActivity(): Promise<string> {
  return remote.noop();
}

/** Start → one workflow task holding a local activity → done. */
export async function oneLocalActivity(): Promise<string> {
  return local.noop();
}

/** A title-like child: one workflow task that starts a long timer, then it waits (closed by termination). */
export async function timerChild(): Promise<void> {
  await condition(() => false, '30 days');
}

/** Starts `count` timer children and completes once they have started (the children keep running). */
export async function parentOfChildren(count: number): Promise<string> {
  const id = workflowInfo().workflowId;
  await Promise.all(Array.from({ length: count }, (_, i) => startChild(timerChild, { workflowId: `${id}-child-${i}`, parentClosePolicy: 'ABANDON' })));
  return 'started';
}
