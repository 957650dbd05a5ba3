import { expect } from 'chai';
import { checkOperationModel, ModelCheckOptions, stuckProbesAllowed } from '../model/check-operation-model';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { ModelCoverage } from '../model/coverage';
import { bundleModelWorkflows, ModelEnvironment } from '../model/model-environment';
import { leaveLaneSkipping } from '../model/operation-model';
import { OperationUnderTest } from '../model/operation-under-test';
import { OperationWorld } from '../model/world';

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
});
