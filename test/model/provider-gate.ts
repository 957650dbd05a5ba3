import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';

/**
 * The providers' pace, per operation: a stalled provider holds every call until it resumes, so a
 * model run can send updates while an activity is in flight (a callback's check, a dispatch, a
 * void) and decide when it answers. It also counts the calls in flight, for the harness to know
 * when a workflow is at rest, and which activities wait out a retry after an attempt that got no
 * answer (a provider down), as opposed to one scheduled and about to answer.
 */
export class ProviderGate {
  private readonly stalled = new Map<string, (() => void)[]>();
  private readonly inFlight = new Map<string, number>();
  /** `workflowId/activityId` of the activities whose last attempt failed and will be tried again. */
  private readonly retrying = new Set<string>();

  stall(operationId: string): void {
    if (!this.stalled.has(operationId)) this.stalled.set(operationId, []);
  }

  resume(operationId: string): void {
    const waiting = this.stalled.get(operationId) ?? [];
    this.stalled.delete(operationId);
    for (const release of waiting) release();
  }

  isStalled(operationId: string): boolean {
    return this.stalled.has(operationId);
  }

  /** Calls of this operation in flight that are not held by a stall (they are about to answer). */
  running(operationId: string): number {
    return (this.inFlight.get(operationId) ?? 0) - (this.stalled.get(operationId)?.length ?? 0);
  }

  /**
   * Whether activity `activityId` of `workflowId` is between attempts: its last one failed and the
   * activity will try again. An activity merely scheduled is not, though it is of a kind that would
   * wait if it asked (a cancellation with no act to cancel never asks the escriturador).
   */
  isRetrying(workflowId: string, activityId: string): boolean {
    return this.retrying.has(`${workflowId}/${activityId}`);
  }

  /** Runs one provider call, after the stall (if any) is lifted. */
  async call<T>(operationId: string, step: () => T | Promise<T>): Promise<T> {
    const { workflowExecution, activityId } = Context.current().info;
    const attempt = `${workflowExecution?.workflowId}/${activityId}`;
    this.inFlight.set(operationId, (this.inFlight.get(operationId) ?? 0) + 1);
    try {
      const waiting = this.stalled.get(operationId);
      if (waiting) await new Promise<void>((resolve) => waiting.push(resolve));
      const answer = await step();
      this.retrying.delete(attempt);
      return answer;
    } catch (err) {
      if (err instanceof ApplicationFailure && err.nonRetryable) this.retrying.delete(attempt);
      else this.retrying.add(attempt);
      throw err;
    } finally {
      this.inFlight.set(operationId, this.inFlight.get(operationId)! - 1);
    }
  }
}
