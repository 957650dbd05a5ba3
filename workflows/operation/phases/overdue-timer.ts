import type { TrackedTitle } from '../../../domain/lifecycle-messages';
import type { OperationRun } from '../operation-run';

/**
 * The titles' overdue timer: set for the earliest deadline of the titles still open, so titles due
 * at the same moment share one; a server timer in real time, and on a test clock the advance that
 * passes the deadline (no timer). When it fires, what the titles due then still owe turns OVERDUE
 * (TitleTracking applies that move, one change at a time per title).
 */
export class OverdueTimer {
  constructor(private readonly run: OperationRun, private readonly openTitles: () => TrackedTitle[]) {}

  /** The deadline it is set for; null once every title has closed. */
  deadline(): string | null {
    return this.openTitles().map((t) => t.overdueAt).sort()[0] ?? null;
  }

  hasFired(deadline: string): boolean {
    return this.run.hasReached(deadline);
  }

  /** Waits for `deadline`, unless `wake` holds first. */
  async wait(deadline: string, wake: () => boolean): Promise<void> {
    await this.run.untilDeadline(deadline, wake);
  }

  /** The titles due at `deadline`; on a test clock the operation's time moves to it, the moment real time would have given their move. */
  fire(deadline: string): TrackedTitle[] {
    this.run.clock?.reach(deadline);
    return this.openTitles().filter((t) => t.overdueAt === deadline);
  }
}
