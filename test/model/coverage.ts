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
  /** Our acts at the escriturador by how they ended, competitors' transfers placed before our act and after it, runs that waited out its outage. */
  private readonly registrations = new Map<string, number>();
  competitorFirst = 0;
  competitorTooLate = 0;
  waitedOutRegistrar = 0;
  /** The escriturador's webhooks by event type and how the route answered (`again`: redelivered), and the payer's payments there. */
  private readonly webhooks = new Map<string, number>();
  payerPaidThere = 0;
  /** Daily accrual runs on paid operations, and the accrual transactions they posted. */
  accrualRuns = 0;
  accrualPostings = 0;

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
    const { registrar } = under.world;
    if (registrar) {
      for (const { status } of registrar.acts.values()) this.registrations.set(status, (this.registrations.get(status) ?? 0) + 1);
      this.competitorFirst += registrar.competitorFirst.size;
      this.competitorTooLate += registrar.competitorTooLate;
      if (registrar.unanswered > 0) this.waitedOutRegistrar += 1;
      for (const [delivery, n] of registrar.deliveryCounts()) this.webhooks.set(delivery, (this.webhooks.get(delivery) ?? 0) + n);
      this.payerPaidThere += registrar.payerPaidThere;
    }
    this.accrualRuns += under.world.accrualsRun;
    this.accrualPostings += under.world.books.count('accrual');
  }

  toString(): string {
    const moves = [...this.moves].sort(([a], [b]) => a.localeCompare(b)).map(([move, n]) => `${move} ${n}`).join(', ');
    return `${this.interleavings} interleavings completed; ${this.continuedAsNew} crossed continue-as-new; ${this.overdueByTimer} titles turned OVERDUE by their timer; ${this.clockAdvances} test clock advances turned ${this.overdueByClock} titles OVERDUE; test server renewed after ${this.renewedAfterActivityInFlight} runs closed with an activity in flight and ${this.stuckAfterClose.length} stuck probes; ${this.rerunAfterWedgedTask.length} run again after the test server lost a workflow task; NF-e checks: ${[...this.nfeChecks].map(([verdict, n]) => `${verdict} ${n}`).join(', ')}, ${this.waitedOutOutage} runs waited out an outage at the check; `
      + `acts at the escriturador: ${[...this.registrations].map(([status, n]) => `${status} ${n}`).join(', ')}, competitors first ${this.competitorFirst} and too late ${this.competitorTooLate}, `
      + `${this.waitedOutRegistrar} runs called it while it was down; the payer paid there ${this.payerPaidThere} times; its webhooks: `
      + `${[...this.webhooks].sort(([a], [b]) => a.localeCompare(b)).map(([delivery, n]) => `${delivery} ${n}`).join(', ')}; `
      + `${this.accrualRuns} daily accruals posted ${this.accrualPostings} times; moves: ${moves}`;
  }
}
