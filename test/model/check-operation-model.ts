import fc from 'fast-check';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { ModelCoverage } from './coverage';
import { ModelEnvironment } from './model-environment';
import { Interleaving, interleavingArbitrary, runInterleaving } from './operation-model';
import { WedgedTaskError } from './wedged-task';

export interface ModelCheckOptions {
  /** Interleavings to run; each is its own fast-check run of one seed. */
  runs: number;
  /** How many run at once, each lane on its own test server and worker. */
  concurrency: number;
  /** The first interleaving's seed; the n-th uses seed + n. */
  seed: number;
  /** Failures to collect before stopping (1: stop at the first; more lists distinct defects at once). */
  maxFailures: number;
  /** Replays the one interleaving fast-check printed (with `seed`), then shrinks it, alone. */
  path?: string;
}

/**
 * How many runs of a check may find the test server stuck for a reason other than an activity left
 * in flight: its own defect now and then, one run in a hundred; more than that, and something of ours
 * leaves locks behind. A replay runs one interleaving, and may not.
 */
export function stuckProbesAllowed({ runs, path }: Pick<ModelCheckOptions, 'runs' | 'path'>): number {
  return path === undefined ? Math.floor(runs / 100) : 0;
}

export interface ModelFailure {
  seed: number;
  path: string;
  report: string;
}

/** Real time one interleaving may take (a loaded machine included) before it counts as hung. */
const RUN_TIMEOUT_MS = 180_000;

const property = (environment: ModelEnvironment, coverage: ModelCoverage) =>
  fc.asyncProperty(interleavingArbitrary, (interleaving) => runInterleaving(environment, interleaving, coverage));

/**
 * Runs the operation model: `runs` interleavings from consecutive seeds, `concurrency` lanes at a
 * time, each lane on its own test server (time skipping is global to a server, so one run's skip
 * must not fire another's timers), stopping after `maxFailures` failures (the runs under way finish).
 * Each failure comes with the seed and path that replay it (`npm run test:model -- --seed S --path
 * P`), which also shrinks it to the fewest commands that still break the invariant.
 */
export async function checkOperationModel(bundle: WorkflowBundleWithSourceMap, options: ModelCheckOptions): Promise<{ failures: ModelFailure[]; coverage: ModelCoverage }> {
  const failures: ModelFailure[] = [];
  const coverage = new ModelCoverage();
  const onEnvironment = async (environment: ModelEnvironment, use: (environment: ModelEnvironment) => Promise<void>) => {
    try {
      await use(environment);
    } finally {
      await environment.stop();
    }
  };
  if (options.path !== undefined) {
    await onEnvironment(await ModelEnvironment.start(bundle), async (environment) => {
      const details = await fc.check(property(environment, coverage), { seed: options.seed, path: options.path, numRuns: 1, timeout: RUN_TIMEOUT_MS });
      if (details.failed) failures.push(failureOf(options.seed, details));
    });
    return { failures, coverage };
  }
  let next = 0;
  const lane = (environment: ModelEnvironment) => async () => {
    const run = (seed: number) => fc.check(property(environment, coverage), { seed, numRuns: 1, endOnFailure: true, timeout: RUN_TIMEOUT_MS });
    while (next < options.runs && failures.length < options.maxFailures) {
      const seed = (options.seed + next) | 0;
      next += 1;
      let details = await run(seed);
      // The test server lost a workflow task (its defect, which takes a timer firing in real time
      // during a task): the same interleaving once more, on the fresh server runInterleaving left
      // the lane. Lost again, it fails like any other run.
      if (details.failed && details.errorInstance instanceof WedgedTaskError) {
        coverage.rerunAfterWedgedTask.push(`seed ${seed}: ${details.errorInstance.message}`);
        process.stderr.write(`model: test server renewed and seed ${seed} run again: ${details.errorInstance.message}\n`);
        details = await run(seed);
      }
      if (details.failed) {
        failures.push(failureOf(seed, details));
        // At once: a lane torn down while a failed run's calls still retry can end the process before the summary.
        process.stderr.write(`model failure:\n${failures[failures.length - 1].report}\n`);
      }
    }
  };
  // Started one after the other: JVMs starting at once on a busy machine outrun the SDK's start
  // timeout. A lane whose server will not start leaves the runs to the lanes that did.
  const lanes: Promise<void>[] = [];
  try {
    for (let i = 0; i < options.concurrency; i += 1) {
      const environment = await ModelEnvironment.start(bundle).catch((err: unknown) => {
        if (lanes.length === 0) throw err;
        process.stderr.write(`model: lane ${i + 1} did not start (${err instanceof Error ? err.message : String(err)}); going on with ${lanes.length}\n`);
        return null;
      });
      if (!environment) break;
      lanes.push(onEnvironment(environment, (started) => lane(started)()));
    }
  } finally {
    await Promise.all(lanes);
  }
  return { failures, coverage };
}

function failureOf(seed: number, details: fc.RunDetails<[Interleaving]>): ModelFailure {
  const path = details.counterexamplePath ?? '0';
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return { seed, path, report: `replay: npm run test:model -- --seed ${seed} --path ${path}\n${error}\n${fc.defaultReportMessage(details) ?? ''}` };
}
