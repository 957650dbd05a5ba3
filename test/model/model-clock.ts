import type { TestWorkflowEnvironment } from '@temporalio/testing';

/**
 * The test server's clock, shared by every model run on it: time moves only when a run asks (due
 * dates passing, polls firing), and then for all of them. A run whose provider is stalled holds
 * the clock still, or the skipped time would time out its held calls and make its outcome depend
 * on the other runs; a waiting advance goes first, so stalls cannot starve it.
 */
export class ModelClock {
  private stills = 0;
  private advancesWaiting = 0;
  private queue: Promise<void> = Promise.resolve();
  private listeners: (() => void)[] = [];

  constructor(private readonly env: TestWorkflowEnvironment) {}

  now(): Promise<number> {
    return this.env.currentTimeMs();
  }

  async holdStill(): Promise<void> {
    while (this.advancesWaiting > 0) await this.changed();
    this.stills += 1;
  }

  letGo(): void {
    this.stills -= 1;
    this.notify();
  }

  /** Skips `ms` of workflow time: every timer due meanwhile fires, in order. */
  async advance(ms: number): Promise<void> {
    this.advancesWaiting += 1;
    const turn = this.queue.then(async () => {
      while (this.stills > 0) await this.changed();
      await this.env.sleep(ms);
    });
    this.queue = turn.catch(() => undefined);
    try {
      await turn;
    } finally {
      this.advancesWaiting -= 1;
      this.notify();
    }
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => this.listeners.push(resolve));
  }

  private notify(): void {
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}
