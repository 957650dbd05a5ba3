import type { OperationUnderTest } from './operation-under-test';

/** What the interleavings of one check reached: printed with the result, so a run shows it exercised the paths it is for. */
export class ModelCoverage {
  interleavings = 0;
  continuedAsNew = 0;
  /** Titles turned OVERDUE by the workflow's timer, their due date still ahead when tracking began. */
  overdueByTimer = 0;
  /** Test clock advances that came back ready, and titles a clock advance turned OVERDUE. */
  clockAdvances = 0;
  overdueByClock = 0;
  /** Runs that closed with an activity in flight, after which their lane got a fresh test server (OperationUnderTest.closedWithActivityInFlight). */
  renewedAfterActivityInFlight = 0;
  /** Runs after which the test server could not skip time for another reason, each with the probe's report; their lane got a fresh server too. */
  readonly stuckAfterClose: string[] = [];
  /** Interleavings run again, on a fresh test server, after the test server lost one of their workflow tasks (./wedged-task.ts). */
  readonly rerunAfterWedgedTask: string[] = [];
  private readonly moves = new Map<string, number>();
  /** NF-e checks before the PIX by what they found, and runs that waited out an outage at the check until SEFAZ answered. */
  private readonly nfeChecks = new Map<string, number>();
  waitedOutOutage = 0;

  record(under: OperationUnderTest): void {
    this.interleavings += 1;
    if (under.continuedAsNew) this.continuedAsNew += 1;
    const overdue = under.world.titles.filter((t) => t.status === 'OVERDUE' && t.overdueAfterMs > 0).length;
    if (under.world.clock) this.overdueByClock += overdue;
    else this.overdueByTimer += overdue;
    this.clockAdvances += under.clockAdvances;
    for (const { from, to } of under.world.moves) this.moves.set(`${from}→${to}`, (this.moves.get(`${from}→${to}`) ?? 0) + 1);
    const { checks } = under.world.sefaz;
    for (const { verdict } of checks) this.nfeChecks.set(verdict, (this.nfeChecks.get(verdict) ?? 0) + 1);
    if (checks.some((c, i) => c.verdict === 'no_verdict' && checks.slice(i + 1).some((later) => later.verdict !== 'no_verdict'))) this.waitedOutOutage += 1;
  }

  toString(): string {
    const moves = [...this.moves].sort(([a], [b]) => a.localeCompare(b)).map(([move, n]) => `${move} ${n}`).join(', ');
    return `${this.interleavings} interleavings completed; ${this.continuedAsNew} crossed continue-as-new; ${this.overdueByTimer} titles turned OVERDUE by their timer; ${this.clockAdvances} test clock advances turned ${this.overdueByClock} titles OVERDUE; test server renewed after ${this.renewedAfterActivityInFlight} runs closed with an activity in flight and ${this.stuckAfterClose.length} stuck probes; ${this.rerunAfterWedgedTask.length} run again after the test server lost a workflow task; NF-e checks: ${[...this.nfeChecks].map(([verdict, n]) => `${verdict} ${n}`).join(', ')}, ${this.waitedOutOutage} runs waited out an outage at the check; moves: ${moves}`;
  }
}
