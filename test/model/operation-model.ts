import fc from 'fast-check';
import { lastWebhooks, OPERATION_COMMANDS, OperationModel, ProvidersResume, towardsTheEnd } from './commands';
import type { ModelCoverage } from './coverage';
import type { ModelEnvironment } from './model-environment';
import { OperationUnderTest } from './operation-under-test';
import { WedgedTaskError } from './wedged-task';
import { DispatchMode, OperationWorld, PixMode } from './world';
import type { LifecycleStatus } from '../../domain/operation-lifecycle';
import { nfeKeyOf, NfeModel, SefazWorld } from './sefaz-world';
import { RegistrarWorld } from './registrar-world';
import { Money } from '../../domain/money';

/** The due date the seller issues each duplicata with, some days out (a title takes its NF-e's one installment whatever its date). */
const DUPLICATA_DUE_IN_MS = 30 * 86_400_000;

/** The operation a model run starts with: born approved or waiting, its signers, its titles and how its providers answer first. */
const setupArbitrary = fc.record({
  initialStatus: fc.constantFrom('APPROVED_DIRECT' as const, 'WAITING_APPROVAL' as const),
  approvalsRequired: fc.constantFrom(1, 2),
  embeddedSignature: fc.boolean(),
  signers: fc.integer({ min: 1, max: 3 }),
  titles: fc.array(fc.record({
    face: fc.integer({ min: 1, max: 500_000 }).map((cents) => (cents / 100).toFixed(2)),
    // Due dates from PAID: mostly minutes ahead (the overdue timer runs), some days ahead (the daily accrual earns on them), sometimes already past.
    overdueAfterMs: fc.oneof(
      { arbitrary: fc.integer({ min: 60_000, max: 1_800_000 }), weight: 4 },
      { arbitrary: fc.integer({ min: 2, max: 15 }).map((days) => days * 86_400_000), weight: 2 },
      { arbitrary: fc.constant(-60_000), weight: 1 },
    ),
    // The invoice behind it: mostly an NF-e, checked at SEFAZ before the PIX; an NFC-e or none, not checked.
    nfe: fc.constantFrom<NfeModel | null>('55', '55', '55', '65', null),
  }), { minLength: 1, maxLength: 3 }),
  dispatchMode: fc.constantFrom<DispatchMode>('ok', 'ok', 'refuse'),
  pixMode: fc.constantFrom<PixMode>('settle', 'pending', 'refuse'),
  // Issue #26: one run in three lives on a test clock (MODEL_CLOCKS=0 leaves them out, to tell a clock defect from another).
  onClock: process.env.MODEL_CLOCKS === '0' ? fc.constant(false) : fc.constantFrom(false, false, true),
});

export const interleavingArbitrary = fc.record({ setup: setupArbitrary, commands: fc.commands(OPERATION_COMMANDS, { maxCommands: 25 }) });
export type Interleaving = typeof interleavingArbitrary extends fc.Arbitrary<infer T> ? T : never;

let operations = 0;

/**
 * A fresh operation's world, named `prefix`-n: its titles, SEFAZ's state of their invoices, and the
 * lane's escriturador holding the duplicata of each NF-e (model 55) as its seller issued it.
 */
export async function freshWorld(
  environment: ModelEnvironment, prefix: string, initialStatus: LifecycleStatus, signers: number, titles: { face: string; overdueAfterMs: number; nfe: NfeModel | null }[],
): Promise<OperationWorld> {
  operations += 1;
  const operationId = `${prefix}-${operations}`;
  const now = await environment.now();
  const nfes = titles.flatMap(({ nfe }, i) => (nfe ? [{ externalId: `${operationId}-r${i + 1}`, model: nfe, key: nfeKeyOf(nfe, operations * 10 + i), status: 'authorized' as const, payerWords: [] }] : []));
  const registrable = nfes.filter((nfe) => nfe.model === '55').map(({ externalId, key }) => ({ titleId: externalId.replace(/-r(\d+)$/, '-t$1'), externalId, key }));
  const faces = new Map(titles.map((t, i) => [`${operationId}-t${i + 1}`, Money.of(t.face)]));
  const registrar = registrable.length === 0 ? null : new RegistrarWorld(environment.escriturador, registrable, faces, new Date(now + DUPLICATA_DUE_IN_MS).toISOString().slice(0, 10));
  return new OperationWorld(operationId, initialStatus, signers, titles, new SefazWorld(nfes, new Date(now).toISOString()), registrar);
}

/**
 * One interleaving: a fresh operation, its commands one after the other (each checking every
 * invariant at rest), then the operation driven to its end, which its workflow must reach and
 * complete at.
 */
export async function runInterleaving(environment: ModelEnvironment, { setup, commands }: Interleaving, coverage: ModelCoverage): Promise<void> {
  const world = await freshWorld(environment, `model-${process.pid}`, setup.initialStatus, setup.signers, setup.titles);
  const { registrar } = world;
  world.dispatchMode = setup.dispatchMode;
  world.pixMode = setup.pixMode;
  world.approvalsRequired = setup.approvalsRequired;
  const under = await OperationUnderTest.start(environment, world, {
    originatorId: 'model', displayNumber: world.operationId, embeddedSignature: setup.embeddedSignature, approvalsRequired: setup.approvalsRequired,
  }, setup.onClock);
  const model: OperationModel = {
    status: world.status, titles: [], stalled: false, onClock: setup.onClock, nfes: world.sefaz.nfes.length, sefazDown: false, registrable: registrar?.titles.length ?? 0, registrarDown: false,
    webhooksPending: 0, webhooksAnswered: 0,
  };
  let wedged = false;
  try {
    await fc.asyncModelRun(() => ({ model, real: under }), commands);
    await finish(model, under);
    coverage.record(under);
  } catch (err) {
    wedged = err instanceof WedgedTaskError;
    throw err;
  } finally {
    environment.gate.resume(world.operationId);
    // The lane's escriturador serves its next run: a run that failed during an outage ends it.
    if (registrar?.down) await registrar.setDown(false);
    if (wedged) {
      // The server that lost a task is replaced whole, with the run (and its clock) still open on it.
      await environment.renew();
    } else {
      if (!(await under.closed())) await under.handle.terminate('model run over').catch(() => undefined);
      if (setup.onClock) await under.deleteClock();
      await leaveLaneSkipping(environment, under, coverage);
    }
  }
}

/**
 * After a run whose every workflow has closed: a time-skipping lock still held then is the test
 * server's own bookkeeping, so the lane gets a fresh server, counted in `coverage` (the check bounds
 * how many runs may need one, test/workflows/operation-model.test.ts). A run closed with an activity
 * in flight needs one for certain, and no probe; any other run is probed (`probeWindowMs`, see
 * ModelEnvironment.checkTimeSkips), and a stuck probe's report is kept and printed.
 */
export async function leaveLaneSkipping(environment: ModelEnvironment, under: OperationUnderTest, coverage: ModelCoverage, probeWindowMs?: number): Promise<void> {
  if (await under.closedWithActivityInFlight()) {
    coverage.renewedAfterActivityInFlight += 1;
    await environment.renew();
    return;
  }
  const stuck = await environment.checkTimeSkips(probeWindowMs).then(() => null, (err: Error) => err.message);
  if (!stuck) return;
  const report = `${under.world.operationId}: ${stuck}; the run's history ends ${await under.historyTail(12)}`;
  coverage.stuckAfterClose.push(report);
  process.stderr.write(`model: test server renewed after ${report}\n`);
  await environment.renew();
}

/** How many steps driving an operation to its end may take: each moves it at least one state forward. */
const MAX_FINISH_STEPS = 24;

async function finish(model: OperationModel, under: OperationUnderTest): Promise<void> {
  if (model.stalled) await new ProvidersResume().run(model, under);
  for (let step = 0; step < MAX_FINISH_STEPS && !(await under.closed()); step += 1) {
    await towardsTheEnd(model, under).run(model, under);
  }
  if (!(await under.closed())) {
    throw new Error(`the workflow never completed: ${MAX_FINISH_STEPS} steps towards its end left it ${model.status}, running`);
  }
  await lastWebhooks(under);
  // The query, not the result: the test client's result() unlocks time skipping for everyone meanwhile.
  const result = await under.state();
  if (!['SETTLED', 'DENIED', 'CANCELLED'].includes(result.status)) throw new Error(`the workflow completed in ${result.status}, not a terminal state`);
  if (result.status === 'SETTLED' && under.world.openTitles().length > 0) throw new Error('the workflow completed SETTLED with titles still open');
}
