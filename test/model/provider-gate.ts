/**
 * The providers' pace, per operation: a stalled provider holds every call until it resumes, so a
 * model run can send updates while an activity is in flight (a callback's check, a dispatch, a
 * void) and decide when it answers. It also counts the calls in flight, for the harness to know
 * when a workflow is at rest.
 */
export class ProviderGate {
  private readonly stalled = new Map<string, (() => void)[]>();
  private readonly inFlight = new Map<string, number>();

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

  /** Runs one provider call, after the stall (if any) is lifted. */
  async call<T>(operationId: string, step: () => T | Promise<T>): Promise<T> {
    this.inFlight.set(operationId, (this.inFlight.get(operationId) ?? 0) + 1);
    try {
      const waiting = this.stalled.get(operationId);
      if (waiting) await new Promise<void>((resolve) => waiting.push(resolve));
      return await step();
    } finally {
      this.inFlight.set(operationId, this.inFlight.get(operationId)! - 1);
    }
  }
}
