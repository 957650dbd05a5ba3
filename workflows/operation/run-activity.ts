import type { LifecycleStatus } from '../../domain/operation-lifecycle';

/** One write the run has in flight beside its lifecycle status. */
export type RunWrite =
  /** The first approval of two is being recorded: the state stays WAITING_APPROVAL. */
  | { kind: 'first approval'; approver: string }
  /** An approve or deny is being applied. */
  | { kind: 'decision'; decision: 'approve' | 'deny' }
  /** The read model is moving to `to` (the run's own status already has). */
  | { kind: 'move'; to: LifecycleStatus }
  /** The PIX of `attempt` settled and the read model is moving to PAID: the titles are about to be tracked. */
  | { kind: 'reconciliation'; attempt: number };

/**
 * What the run is doing beside waiting: the writes it has in flight, idle when none. Handlers and
 * the main line interleave, so writes overlap (the second approver's decision arrives while the
 * first approval is recorded; an approval's move is written inside its decision): the run's
 * activity is the set of them, each started and ended by `during`, and every question the
 * validators and waits ask of it is answered here.
 */
export class RunActivity {
  private readonly writes: RunWrite[] = [];

  /** Runs `step` with `write` in flight; it ends with the step, however the step ends. */
  async during<T>(write: RunWrite, step: () => Promise<T>): Promise<T> {
    this.writes.push(write);
    try {
      return await step();
    } finally {
      this.writes.splice(this.writes.indexOf(write), 1);
    }
  }

  /** An approve or deny is being applied: another decision is refused, and the approval phase waits for it. */
  get deciding(): boolean {
    return this.has('decision');
  }

  /**
   * A decision or a first approval is being written: a deny, cancel or retry is refused (one
   * accepted during that write would make the run's history replay differently). A second
   * approver may still complete the pair.
   */
  get writingDecision(): boolean {
    return this.has('decision') || this.has('first approval');
  }

  get reconciling(): boolean {
    return this.has('reconciliation');
  }

  /** The read model is being moved: a test clock's advance is answered only once it is not. */
  get movingReadModel(): boolean {
    return this.has('move') || this.has('reconciliation');
  }

  /** `idle`, or each write in flight: what a failing model run's report prints. */
  toString(): string {
    return this.writes.length === 0 ? 'idle' : this.writes.map(describe).join(' + ');
  }

  private has(kind: RunWrite['kind']): boolean {
    return this.writes.some((write) => write.kind === kind);
  }
}

function describe(write: RunWrite): string {
  switch (write.kind) {
    case 'first approval': return `recording the first approval (${write.approver})`;
    case 'decision': return `applying ${write.decision === 'approve' ? 'an approval' : 'a denial'}`;
    case 'move': return `moving the read model to ${write.to}`;
    case 'reconciliation': return `reconciling the PIX of attempt ${write.attempt}`;
  }
}
