import { condition, setHandler } from '@temporalio/workflow';
import { signalIfRunning } from '../signal-external';
import { testClockWorkflowId } from '../../domain/workflow-ids';
import { clockAdvancedSignal, clockDeletedSignal, operationAttachedSignal, operationCaughtUpSignal } from '../test-clock-messages';

/** What an operation on a test clock knows of it; carried over by continue-as-new. */
export interface OperationClockState {
  clockId: string;
  /** The clock's time: what the operation catches up to when it advances. */
  target: string;
  /** The operation's own time: the deadline being applied while it catches up, else `target`. */
  local: string;
  /** The clock time of an advance not answered yet. */
  unanswered: string | null;
  /** The clock was deleted: title tracking ends. */
  deleted: boolean;
}

/**
 * An operation's time when it is on a test clock: it stands still between advances
 * and moves only when the clock says so, deadline by deadline, so every move made while catching
 * up carries the moment real time would have given it. The operation answers each advance once
 * nothing is left due up to the clock's time.
 */
export class OperationClock {
  private answering = false;

  constructor(readonly state: OperationClockState, private readonly workflowId: string) {}

  install(): void {
    setHandler(clockAdvancedSignal, ({ frozenTime }) => {
      if (Date.parse(frozenTime) > Date.parse(this.state.target)) this.state.target = frozenTime;
      this.state.unanswered = this.state.target;
    });
    setHandler(clockDeletedSignal, () => { this.state.deleted = true; });
  }

  now(): Date {
    return new Date(this.state.local);
  }

  /** Whether the clock has passed `at`: the operation may apply what falls due then. */
  passed(at: string): boolean {
    return Date.parse(at) <= Date.parse(this.state.target);
  }

  /** The operation's time moves to `at` (a deadline it is applying); never backwards. */
  reach(at: string): void {
    if (Date.parse(at) > Date.parse(this.state.local)) this.state.local = at;
  }

  /** An operation created on the clock joins it, so later advances reach it. */
  async attach(): Promise<void> {
    await signalIfRunning(testClockWorkflowId(this.state.clockId), operationAttachedSignal, { workflowId: this.workflowId });
  }

  /** Beside the main line for the whole run: each advance is answered once `caughtUp` holds. */
  async answerAdvances(caughtUp: () => boolean): Promise<never> {
    for (;;) {
      await condition(() => this.state.unanswered !== null && (this.state.deleted || caughtUp()));
      const frozenTime = this.state.unanswered!;
      this.state.local = this.state.target;
      this.state.unanswered = null;
      this.answering = true;
      await signalIfRunning(testClockWorkflowId(this.state.clockId), operationCaughtUpSignal, { workflowId: this.workflowId, frozenTime });
      this.answering = false;
    }
  }

  /** No answer on its way to the clock (a run continuing as new carries what is still unanswered). */
  async settledSignals(): Promise<void> {
    await condition(() => !this.answering);
  }

  /** Before the run ends: no advance left unanswered, or the clock would wait for it. */
  async settled(): Promise<void> {
    await condition(() => this.state.unanswered === null && !this.answering);
  }
}
