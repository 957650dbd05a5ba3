import { expect } from 'chai';
import { checkOperationModel, ModelCheckOptions, stuckProbesAllowed } from '../model/check-operation-model';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { setTimeout as sleep } from 'node:timers/promises';
import { ModelCoverage } from '../model/coverage';
import { bundleModelWorkflows, ModelEnvironment } from '../model/model-environment';
import { freshWorld, leaveLaneSkipping } from '../model/operation-model';
import { registrarBrokenAtRest } from '../model/registrar-world';
import { DailyAccrualRuns, deliverWebhooks, lastWebhooks, observe, type OperationModel } from '../model/commands';
import { accrualSchedule } from '../../domain/ledger/accrual';
import { Money } from '../../domain/money';
import { OperationUnderTest } from '../model/operation-under-test';
import { OperationWorld } from '../model/world';
import { nfeKeyOf, sefazBrokenAtRest, SefazWorld } from '../model/sefaz-world';
import { StartedTaskWatch, WEDGED_TASK_MS, WedgedTaskError } from '../model/wedged-task';
import { holdTaskSignal, wedgedTaskWorkflow } from '../model/wedged-task-workflow';
import { temporal } from '@temporalio/proto';

/**
 * Issue #23: the operation workflow, with its real code on the time-skipping test server and
 * stand-in activities, keeps every invariant (test/model/invariants.ts) whatever order requests,
 * provider callbacks, stalls and time come in. `npm test` runs a fresh-seeded sample;
 * `npm run test:model` runs 1,000 interleavings, or replays one (`-- --seed S --path P`).
 */
const options: ModelCheckOptions = {
  runs: Number(process.env.MODEL_RUNS ?? 100),
  concurrency: Number(process.env.MODEL_CONCURRENCY ?? 2),
  seed: process.env.MODEL_SEED === undefined ? (Date.now() ^ (Math.random() * 2 ** 31)) | 0 : Number(process.env.MODEL_SEED),
  path: process.env.MODEL_PATH,
  maxFailures: Number(process.env.MODEL_MAX_FAILURES ?? 1),
};

describe('operation workflow against its model (random interleavings)', function () {
  this.timeout(0);
  let bundle: WorkflowBundleWithSourceMap;
  before(async () => {
    bundle = await bundleModelWorkflows();
  });

  const what = options.path === undefined ? `${options.runs} interleavings from seed ${options.seed}` : `the interleaving at seed ${options.seed}, path ${options.path}`;
  it(`answers every update, moves only along the state table, never pays twice and completes at its end: ${what}`, async () => {
    const { failures, coverage } = await checkOperationModel(bundle, options);
    process.stdout.write(`      model coverage: ${coverage}\n`);
    expect(failures.map((f) => f.report), failures.map((f) => f.report).join('\n\n')).to.deep.equal([]);
    expect(coverage.stuckAfterClose.length, coverage.stuckAfterClose.join('\n')).to.be.at.most(stuckProbesAllowed(options));
    // The test server's lost workflow tasks are as rare as its stuck probes, or they are not its own.
    expect(coverage.rerunAfterWedgedTask.length, coverage.rerunAfterWedgedTask.join('\n')).to.be.at.most(stuckProbesAllowed(options));
  });

  /** What the watch threw on `events` (null: nothing yet). */
  const lossSeen = (watch: StartedTaskWatch, workflowId: string, events: temporal.api.history.v1.IHistoryEvent[], now?: number): unknown => {
    try {
      watch.observe(workflowId, events, now);
      return null;
    } catch (err) {
      return err;
    }
  };

  it('takes a workflow task the history ends on, started for longer than twice the task timeout, for one the test server lost', () => {
    const { EventType } = temporal.api.enums.v1;
    const history = (types: temporal.api.enums.v1.EventType[], firstSecond = 100) => types.map((eventType, i) =>
      temporal.api.history.v1.HistoryEvent.fromObject({ eventId: i + 1, eventType, eventTime: { seconds: firstSecond + i } }));
    const started = history([EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED]);
    const watch = new StartedTaskWatch();
    const lostAt = (events: temporal.api.history.v1.IHistoryEvent[], now: number, workflowId = 'w') => lossSeen(watch, workflowId, events, now);
    expect(lostAt(started, 0)).to.equal(null);
    expect(lostAt(started, WEDGED_TASK_MS)).to.equal(null);
    const lost = lostAt(started, WEDGED_TASK_MS + 1);
    expect(lost).to.be.instanceOf(WedgedTaskError);
    expect((lost as Error).message).to.equal(`w: its workflow task (event 3) has been started for ${WEDGED_TASK_MS + 1} ms, neither completed nor timed out: the test server lost it (sdk-java #3088)`);
    // A task that completed in between, or another task started since, starts the count again.
    const completed = history([...started.map((e) => e.eventType!), EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED]);
    expect(lostAt(completed, 30_000)).to.equal(null);
    expect(lostAt(started, 30_001)).to.equal(null);
    expect(lostAt(started, 30_001 + WEDGED_TASK_MS)).to.equal(null);
    // The same event id in a run continued as new is another task.
    const nextRun = history(started.map((e) => e.eventType!), 200);
    expect(lostAt(nextRun, 30_002 + WEDGED_TASK_MS)).to.equal(null);
    expect(lostAt(nextRun, 30_003 + 2 * WEDGED_TASK_MS)).to.be.instanceOf(WedgedTaskError);
    // Each workflow (an operation and its test clock) is watched on its own.
    expect(lostAt(nextRun, 30_004 + 2 * WEDGED_TASK_MS, 'clock')).to.equal(null);
  });

  it('the test server loses a workflow task whose completion cancels a timer that fired during it (sdk-java #3088), and the watch names it', async function () {
    this.timeout(120_000);
    await onFreshLane(async (environment) => {
      const taskQueue = 'wedged-task';
      const workflowBundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../model/wedged-task-workflow'), logger: new DefaultLogger('ERROR') });
      const worker = await Worker.create({ connection: environment.env.nativeConnection, taskQueue, workflowBundle });
      await worker.runUntil(async () => {
        const handle = await environment.env.client.workflow.start(wedgedTaskWorkflow, { taskQueue, workflowId: `wedged-task-${process.pid}-${Date.now()}`, args: [1_000] });
        const eventsOf = async () => (await handle.fetchHistory()).events ?? [];
        const typesOf = (events: temporal.api.history.v1.IHistoryEvent[]) => events.map((e) => temporal.api.enums.v1.EventType[e.eventType!].replace('EVENT_TYPE_', ''));
        // The lane's server skips no time: the one-second timer runs in real time from here.
        while (!typesOf(await eventsOf()).includes('TIMER_STARTED')) await sleep(10);
        await handle.signal(holdTaskSignal, 2_500);
        const watch = new StartedTaskWatch();
        const started = Date.now();
        let lost: unknown = null;
        let events: temporal.api.history.v1.IHistoryEvent[] = [];
        while (!lost && Date.now() - started < 2 * WEDGED_TASK_MS) {
          events = await eventsOf();
          lost = lossSeen(watch, handle.workflowId, events);
          await sleep(100);
        }
        expect(lost, typesOf(events).join(', ')).to.be.instanceOf(WedgedTaskError);
        // The shape of the CI run that found it: the timer's fire and the task's end never recorded, and no timeout either.
        expect(typesOf(events).slice(-4)).to.deep.equal(['TIMER_STARTED', 'WORKFLOW_EXECUTION_SIGNALED', 'WORKFLOW_TASK_SCHEDULED', 'WORKFLOW_TASK_STARTED']);
        await handle.terminate('lost by the test server');
      });
    });
  });

  it('allows one stuck probe in a hundred runs, and none for a replay', () => {
    expect([99, 100, 1_000].map((runs) => stuckProbesAllowed({ runs }))).to.deep.equal([0, 1, 10]);
    expect(stuckProbesAllowed({ runs: 1_000, path: '0:1' })).to.equal(0);
  });

  /** `check` on a fresh lane of its own (test server and worker), stopped after it. */
  const onFreshLane = async (check: (environment: ModelEnvironment) => Promise<void>) => {
    const environment = await ModelEnvironment.start(bundle);
    try {
      await check(environment);
    } finally {
      await environment.stop();
    }
  };
  /** An operation of one title, one signer and one approval, named for its test. */
  const worldOf = (name: string, status: 'APPROVED_DIRECT' | 'WAITING_APPROVAL') =>
    new OperationWorld(`model-${name}-${process.pid}-${Date.now()}`, status, 1, [{ face: '100.00', overdueAfterMs: 60_000 }]);
  const startOn = (environment: ModelEnvironment, world: OperationWorld) =>
    OperationUnderTest.start(environment, world, { originatorId: 'model', displayNumber: world.operationId, embeddedSignature: false, approvalsRequired: 1 }, false);

  it('the probe after each run passes a server that skips time and fails one that cannot (a time-skipping lock left held)', async function () {
    this.timeout(60_000);
    await onFreshLane(async (environment) => {
      await environment.checkTimeSkips(2_000);
      await environment.env.connection.testService!.lockTimeSkipping({});
      const failure = await environment.checkTimeSkips(2_000).then(() => null, (err: Error) => err);
      expect(failure?.message).to.match(/^time skipping is stuck after this run: asked to skip 3600000 ms, the test server's clock moved \d+ ms in \d+ ms of real time$/);
    });
  });

  it('a run closed with an activity in flight leaves the test server unable to skip time; the harness sees it in the history and renews the server', async function () {
    this.timeout(60_000);
    await onFreshLane(async (environment) => {
      const world = worldOf('leak', 'APPROVED_DIRECT');
      // The provider holds the contract dispatch the approved operation starts with.
      environment.gate.stall(world.operationId);
      const under = await startOn(environment, world);
      expect(await under.closedWithActivityInFlight()).to.equal(false);
      await under.handle.terminate('closed with its dispatch in flight');
      environment.gate.resume(world.operationId);
      expect(await under.closedWithActivityInFlight()).to.equal(true);
      const stuck = await environment.checkTimeSkips(2_000).then(() => null, (err: Error) => err);
      expect(stuck?.message).to.match(/^time skipping is stuck after this run/);
      await environment.renew();
      await environment.checkTimeSkips(2_000);
    });
  });

  it('after a run closed with nothing in flight, a server stuck all the same is renewed, and the probe\'s report kept with the run\'s last events', async function () {
    this.timeout(60_000);
    await onFreshLane(async (environment) => {
      const coverage = new ModelCoverage();
      const closed = async (name: string) => {
        // Waiting for approval, the operation runs no activity.
        const under = await startOn(environment, worldOf(name, 'WAITING_APPROVAL'));
        await under.handle.terminate('model run over');
        expect(await under.closedWithActivityInFlight()).to.equal(false);
        return under;
      };
      await leaveLaneSkipping(environment, await closed('clean'), coverage, 2_000);
      expect(coverage.stuckAfterClose).to.deep.equal([]);

      const stuck = await closed('other-leak');
      // A lock of no workflow's: what a leak of the test server's other than an activity in flight leaves.
      await environment.env.connection.testService!.lockTimeSkipping({});
      await leaveLaneSkipping(environment, stuck, coverage, 2_000);
      expect(coverage.stuckAfterClose).to.have.length(1);
      expect(coverage.stuckAfterClose[0]).to.match(new RegExp(`^${stuck.world.operationId}: time skipping is stuck after this run: .*; the run's history ends .*WORKFLOW_EXECUTION_TERMINATED$`));
      expect(coverage.renewedAfterActivityInFlight).to.equal(0);
      await environment.checkTimeSkips(2_000);
    });
  });

  /**
   * An approved operation of one title whose NF-e SEFAZ knows (`prepare` sets SEFAZ's state),
   * its contract dispatched and signed: its workflow is at the check before the PIX or past it.
   */
  const signedWithNfe = async (environment: ModelEnvironment, name: string, prepare: (sefaz: SefazWorld, world: OperationWorld) => void) => {
    const sefaz = new SefazWorld([{ externalId: 'r1', model: '55', key: nfeKeyOf('55', 1), status: 'authorized', payerWords: [] }], new Date(await environment.now()).toISOString());
    // Due in a day: the operation stays PAID once paid.
    const world = new OperationWorld(`model-${name}-${process.pid}-${Date.now()}`, 'APPROVED_DIRECT', 1, [{ face: '100.00', overdueAfterMs: 86_400_000 }], sefaz);
    const under = await startOn(environment, world);
    prepare(sefaz, world);
    world.document!.signed = 1;
    await under.signal('signerSigned');
    return under;
  };
  const sefazBroken = (under: OperationUnderTest, stalled = false) => sefazBrokenAtRest(under.world.sefaz, under.world.status, under.world.cancellationReason, stalled);

  it('an operation waits at the NF-e check in SIGNED while SEFAZ is down, orders no PIX, and pays once SEFAZ answers', async function () {
    this.timeout(120_000);
    await onFreshLane(async (environment) => {
      const under = await signedWithNfe(environment, 'outage', (sefaz) => { sefaz.down = true; });
      await environment.advance(600_000);
      await under.atRest();
      expect((await under.state()).status).to.equal('SIGNED');
      expect(under.world.pixPayments).to.deep.equal([]);
      // 2 s doubling: about eight attempts in ten minutes, each answered 109.
      expect(under.world.sefaz.checks.length).to.be.at.least(5);
      expect(under.world.sefaz.checks.every((c) => c.verdict === 'no_verdict' && c.expected === 'no_verdict')).to.equal(true);
      expect(sefazBroken(under)).to.deep.equal([]);

      under.world.sefaz.down = false;
      await environment.advance(300_000);
      await under.atRest();
      expect((await under.state()).status).to.equal('PAID');
      expect(under.world.pixPayments.map((p) => p.status)).to.deep.equal(['SETTLED']);
      expect(under.world.sefaz.lastCheck()).to.deep.equal({ verdict: 'passed', expected: 'passed' });
      expect([...under.world.violations, ...sefazBroken(under)]).to.deep.equal([]);
      await under.handle.terminate('checked');
    });
  });

  for (const { what, prepare, status, reason } of [
    { what: 'its NF-e cancelled by the issuer', prepare: (s: SefazWorld) => { s.nfes[0].status = 'cancelled'; }, status: 'CANCELLED', reason: 'nfe_cancelled' },
    { what: 'its payer saying not_performed', prepare: (s: SefazWorld) => { s.nfes[0].payerWords.push({ event: 'not_performed', at: new Date().toISOString() }); }, status: 'CANCELLED', reason: 'nfe_disowned_by_payer' },
    {
      what: 'its payer saying unknown_operation, then ciência, then confirmed',
      prepare: (s: SefazWorld) => { s.nfes[0].payerWords.push(...(['unknown_operation', 'aware', 'confirmed'] as const).map((event) => ({ event, at: new Date().toISOString() }))); },
      status: 'PAID', reason: null,
    },
    {
      what: 'its payer saying confirmed, then ciência, then not_performed',
      prepare: (s: SefazWorld) => { s.nfes[0].payerWords.push(...(['confirmed', 'aware', 'not_performed'] as const).map((event) => ({ event, at: new Date().toISOString() }))); },
      status: 'CANCELLED', reason: 'nfe_disowned_by_payer',
    },
  ]) {
    it(`an operation signed with ${what} before the NF-e check ends ${status}${reason ? ` (${reason}) with no PIX` : ''}`, async function () {
      this.timeout(60_000);
      await onFreshLane(async (environment) => {
        const under = await signedWithNfe(environment, 'refusal', prepare);
        expect((await under.state()).status).to.equal(status);
        expect(under.world.cancellationReason).to.equal(reason);
        expect(under.world.pixPayments).to.have.length(status === 'PAID' ? 1 : 0);
        expect([...under.world.violations, ...sefazBroken(under)]).to.deep.equal([]);
        if (!(await under.closed())) await under.handle.terminate('checked');
      });
    });
  }

  it('a retry of a failed PIX checks the NF-e again: cancelled since, the retry is refused and the operation ends CANCELLED (nfe_cancelled) with no second PIX', async function () {
    this.timeout(60_000);
    await onFreshLane(async (environment) => {
      const under = await signedWithNfe(environment, 'retry', (_sefaz, world) => { world.pixMode = 'refuse'; });
      expect((await under.state()).status).to.equal('DISBURSEMENT_FAILED');
      under.world.sefaz.nfes[0].status = 'cancelled';
      under.world.pixMode = 'settle';
      const retry = await under.update('retryDisbursement', (id) => ({ requestedBy: id }));
      await under.unanswered();
      expect(retry.answer).to.deep.equal({ ok: false, code: 'operation_cannot_retry_disbursement' });
      expect((await under.state()).status).to.equal('CANCELLED');
      expect(under.world.cancellationReason).to.equal('nfe_cancelled');
      expect(under.world.pixPayments.map((p) => p.status)).to.deep.equal(['REJECTED']);
      expect([...under.world.violations, ...sefazBroken(under)]).to.deep.equal([]);
    });
  });

  it('a retry of a failed PIX while SEFAZ is down waits at the check, unanswered and ordering no PIX, and pays once SEFAZ answers', async function () {
    this.timeout(120_000);
    await onFreshLane(async (environment) => {
      const under = await signedWithNfe(environment, 'retry-outage', (_sefaz, world) => { world.pixMode = 'refuse'; });
      expect((await under.state()).status).to.equal('DISBURSEMENT_FAILED');
      under.world.sefaz.down = true;
      under.world.pixMode = 'settle';
      const retry = await under.update('retryDisbursement', (id) => ({ requestedBy: id }));
      await environment.advance(600_000);
      await under.atRest();
      expect(await under.unanswered()).to.deep.equal([retry]);
      expect((await under.state()).status).to.equal('DISBURSEMENT_FAILED');
      expect(under.world.pixPayments.map((p) => p.status)).to.deep.equal(['REJECTED']);
      expect(under.world.sefaz.lastCheck()).to.deep.equal({ verdict: 'no_verdict', expected: 'no_verdict' });

      under.world.sefaz.down = false;
      await environment.advance(300_000);
      await under.atRest();
      await under.unanswered();
      expect(retry.answer).to.include({ ok: true });
      expect((await under.state()).status).to.equal('PAID');
      expect(under.world.pixPayments.map((p) => p.status)).to.deep.equal(['REJECTED', 'SETTLED']);
      expect([...under.world.violations, ...sefazBroken(under)]).to.deep.equal([]);
      await under.handle.terminate('checked');
    });
  });

  /**
   * An approved operation of two titles, each backed by an NF-e whose duplicata the lane's sandbox
   * escriturador holds for the assignor, its contract signed after `prepare`: its workflow is at
   * the acts before the PIX or past them.
   */
  const signedWithDuplicatas = async (environment: ModelEnvironment, name: string, prepare: (world: OperationWorld) => Promise<void> | void) => {
    const due = { overdueAfterMs: 86_400_000, nfe: '55' as const };
    const world = await freshWorld(environment, `model-${name}-${process.pid}`, 'APPROVED_DIRECT', 1, [{ face: '100.00', ...due }, { face: '250.00', ...due }]);
    const under = await startOn(environment, world);
    await prepare(world);
    world.document!.signed = 1;
    await under.signal('signerSigned');
    return under;
  };
  /** Signed with two duplicatas, our acts registered, and the PIX refused: DISBURSEMENT_FAILED. */
  const failedPixWithDuplicatas = async (environment: ModelEnvironment, name: string) => {
    const under = await signedWithDuplicatas(environment, name, (world) => { world.pixMode = 'refuse'; });
    expect((await under.state()).status).to.equal('DISBURSEMENT_FAILED');
    return under;
  };
  const registrarBroken = ({ world }: OperationUnderTest) => [...world.violations, ...registrarBrokenAtRest(world.registrar!, { ...world, pixOrders: world.pixPayments.length }, false)];
  const actStatuses = ({ world }: OperationUnderTest) => [...world.registrar!.acts.values()].map((act) => act.status);
  /** The operation ended with our acts as `statuses` say, none in force at the escriturador, and every invariant holding. */
  const endedWithNoActInForce = (under: OperationUnderTest, statuses: string[]) => {
    expect(actStatuses(under)).to.deep.equal(statuses);
    expect(under.world.registrar!.actsInForce()).to.deep.equal([]);
    expect(registrarBroken(under)).to.deep.equal([]);
  };

  it('a competitor that acquired the second title\'s duplicata first ends the operation CANCELLED (receivable_encumbered) with no PIX, the first title\'s act cancelled at the escriturador', async function () {
    this.timeout(60_000);
    await onFreshLane(async (environment) => {
      const under = await signedWithDuplicatas(environment, 'competitor', (world) => world.registrar!.competitorAcquires(world.registrar!.titles[1].key));
      expect((await under.state()).status).to.equal('CANCELLED');
      expect(under.world.cancellationReason).to.equal('receivable_encumbered');
      expect(under.world.pixPayments).to.deep.equal([]);
      expect(under.world.registrar!.refusals.map((r) => [r.titleId, r.reason])).to.deep.equal([[`${under.operationId}-t2`, 'already_transferred']]);
      endedWithNoActInForce(under, ['cancelled', 'refused']);
    });
  });

  it('an operation waits in SIGNED while the escriturador is down, orders no PIX, and pays once it is back, every act registered first', async function () {
    this.timeout(120_000);
    await onFreshLane(async (environment) => {
      const under = await signedWithDuplicatas(environment, 'registrar-outage', (world) => world.registrar!.setDown(true));
      await environment.advance(600_000);
      await under.atRest();
      expect((await under.state()).status).to.equal('SIGNED');
      expect(under.world.pixPayments).to.deep.equal([]);
      expect(under.world.registrar!.unanswered).to.be.at.least(3);
      expect(registrarBroken(under)).to.deep.equal([]);

      await under.world.registrar!.setDown(false);
      await environment.advance(300_000);
      await under.atRest();
      expect((await under.state()).status).to.equal('PAID');
      expect(under.world.pixPayments.map((p) => p.status)).to.deep.equal(['SETTLED']);
      expect(actStatuses(under)).to.deep.equal(['registered', 'registered']);
      expect(registrarBroken(under)).to.deep.equal([]);
      await under.handle.terminate('checked');
    });
  });

  it('a cancel after the PIX failed cancels our acts at the escriturador', async function () {
    this.timeout(60_000);
    await onFreshLane(async (environment) => {
      const under = await failedPixWithDuplicatas(environment, 'cancel-acts');
      expect(under.world.registrar!.actsInForce()).to.have.length(2);
      const cancel = await under.update('cancel', (id) => ({ requestedBy: id, reason: null }));
      await under.unanswered();
      expect(cancel.answer).to.include({ ok: true });
      expect((await under.state()).status).to.equal('CANCELLED');
      endedWithNoActInForce(under, ['cancelled', 'cancelled']);
    });
  });

  it('the escriturador\'s webhooks late or again pay a title once: a settlement after the title was paid to us applies nothing, one delivered again after its answer was lost applies nothing more, our acts\' news change nothing', async function () {
    this.timeout(60_000);
    await onFreshLane(async (environment) => {
      const under = await signedWithDuplicatas(environment, 'late-webhooks', () => undefined);
      expect((await under.state()).status).to.equal('PAID');
      const registrar = under.world.registrar!;
      const [first, second] = under.world.titles;
      // The first title's payer pays all its boleto at the escriturador, and the title to us too before the webhook arrives.
      const late = (await registrar.payerPays(first.titleId, true))!;
      await under.update('payerPayment', (id) => ({ titleId: first.titleId, payment: { externalId: id, paidAmountBrl: '100.00', paidAt: null, channel: 'SANDBOX', recordedBy: id } }));
      await deliverWebhooks(under, [late], 'late');
      // The second's pays part of its boleto there: its webhook at once, then again.
      const part = (await registrar.payerPays(second.titleId, false))!;
      await deliverWebhooks(under, [part], 'at once');
      await deliverWebhooks(under, [part], 'again');
      await deliverWebhooks(under, registrar.pendingWebhooks(), 'late');
      expect(registrar.deliveries.map((d) => [d.arrival, d.event.type, d.outcome])).to.deep.equal([
        ['late', 'duplicata.settled', 'title_closed'], ['at once', 'duplicata.settled', 'applied'], ['again', 'duplicata.settled', 'applied'],
        ['late', 'act.registered', 'recorded'], ['late', 'act.registered', 'recorded'],
      ]);
      expect(under.updates.filter((u) => u.name === 'payerPayment')).to.have.length(2);
      expect([first, second].map((t) => [t.status, t.paid.toString(), [...t.applied.keys()].length])).to.deep.equal([['PAID', '100.00', 1], ['PARTIALLY_PAID', '125.01', 1]]);
      expect(actStatuses(under)).to.deep.equal(['settled', 'registered']);
      expect(registrarBroken(under)).to.deep.equal([]);
      await under.handle.terminate('checked');
    });
  });

  it('a settlement the payer paid at the escriturador before our acts were cancelled, arriving after, is not ours: it pays nothing and brings no act back', async function () {
    this.timeout(60_000);
    await onFreshLane(async (environment) => {
      const under = await failedPixWithDuplicatas(environment, 'webhook-after-cancel');
      const registrar = under.world.registrar!;
      await registrar.payerPays(under.world.titles[0].titleId, false);
      await under.update('cancel', (id) => ({ requestedBy: id, reason: null }));
      await under.unanswered();
      expect((await under.state()).status).to.equal('CANCELLED');
      await lastWebhooks(under);
      expect(registrar.deliveries.map((d) => [d.event.type, d.outcome])).to.deep.equal([
        ['act.registered', 'recorded'], ['act.registered', 'recorded'], ['duplicata.settled', 'not_ours'], ['act.cancelled', 'recorded'], ['act.cancelled', 'recorded'],
      ]);
      expect(under.world.titles.map((t) => t.paid.toString())).to.deep.equal(['0.00', '0.00']);
      endedWithNoActInForce(under, ['cancelled', 'cancelled']);
    });
  });

  it('the daily accrual earns an open title its effective-interest schedule day by day and leaves the rest unearned; paid in full, all of it is earned', async function () {
    this.timeout(60_000);
    await onFreshLane(async (environment) => {
      const world = await freshWorld(environment, `model-accrual-${process.pid}`, 'APPROVED_DIRECT', 1, [{ face: '1000.00', overdueAfterMs: 10 * 86_400_000, nfe: null }]);
      const under = await startOn(environment, world);
      world.document!.signed = 1;
      await under.signal('signerSigned');
      const model: OperationModel = { status: 'PAID', titles: [], stalled: false, onClock: false, nfes: 0, sefazDown: false, registrable: 0, registrarDown: false, webhooksPending: 0, webhooksAnswered: 0 };
      const [title] = world.titles;
      const terms = world.accrualTerms(title)!;
      // Each run checks every invariant at rest, the books against the schedule among them.
      for (let day = 1; day <= 3; day += 1) await new DailyAccrualRuns().run(model, under);
      expect(terms.days).to.be.within(10, 11);
      const earned = Money.sum(accrualSchedule(terms).slice(0, 3));
      expect(earned.gt(Money.ZERO)).to.equal(true);
      expect(world.books.incomeOf(title.titleId).toString()).to.equal(earned.toString());
      expect(world.books.posted(`unearned_discount:${title.titleId}`).toString()).to.equal(title.discount.minus(earned).toString());
      expect(world.books.count('accrual')).to.equal(3);

      await under.update('payerPayment', (id) => ({ titleId: title.titleId, payment: { externalId: id, paidAmountBrl: '1000.00', paidAt: null, channel: 'SANDBOX', recordedBy: id } }));
      await observe(model, under);
      expect(world.books.incomeOf(title.titleId).toString()).to.equal(title.discount.toString());
    });
  });

  it('the SEFAZ invariant names an operation that moved on past a check that refused or gave no verdict, and an NF-e reason with no check behind it', () => {
    const sefaz = (...verdicts: ('passed' | 'no_verdict' | 'nfe_cancelled')[]) => {
      const world = new SefazWorld([], null);
      world.checks.push(...verdicts.map((verdict) => ({ verdict, expected: verdict })));
      return world;
    };
    expect(sefazBrokenAtRest(sefaz('no_verdict'), 'SIGNED', null, false)).to.deep.equal([]);
    expect(sefazBrokenAtRest(sefaz('no_verdict'), 'DISBURSING', null, false)).to.deep.equal(['the last NF-e check got no verdict, yet the operation is DISBURSING, not waiting at the check']);
    expect(sefazBrokenAtRest(sefaz('no_verdict', 'nfe_cancelled'), 'CANCELLED', 'nfe_cancelled', false)).to.deep.equal([]);
    expect(sefazBrokenAtRest(sefaz('nfe_cancelled'), 'PAID', null, false)).to.deep.equal(['the last NF-e check refused (nfe_cancelled), yet the operation is PAID with cancellation_reason null']);
    expect(sefazBrokenAtRest(sefaz('nfe_cancelled'), 'CANCELLED', 'requested', false)).to.have.length(1);
    expect(sefazBrokenAtRest(sefaz('nfe_cancelled'), 'SIGNED', null, true)).to.deep.equal([]);
    expect(sefazBrokenAtRest(sefaz('passed'), 'CANCELLED', 'nfe_cancelled', false)).to.deep.equal(['the operation is CANCELLED with cancellation_reason nfe_cancelled while its last NF-e check found passed']);
    expect(sefazBrokenAtRest(sefaz(), 'CANCELLED', 'requested', false)).to.deep.equal([]);
  });
});
