import fc from 'fast-check';
import type { ModelEnvironment } from './model-environment';
import { Interleaving, interleavingArbitrary, runInterleaving } from './operation-model';

export interface ModelCheckOptions {
  /** Interleavings to run; each is its own fast-check run of one seed. */
  runs: number;
  /** How many run at once on the one server and worker. */
  concurrency: number;
  /** The first interleaving's seed; the n-th uses seed + n. */
  seed: number;
  /** Replays the one interleaving fast-check printed (with `seed`), then shrinks it, alone. */
  path?: string;
}

export interface ModelFailure {
  seed: number;
  path: string;
  report: string;
}

/** Real time one interleaving may take (a loaded machine included) before it counts as hung. */
const RUN_TIMEOUT_MS = 180_000;

const property = (environment: ModelEnvironment) => fc.asyncProperty(interleavingArbitrary, (interleaving) => runInterleaving(environment, interleaving));

/**
 * Runs the operation model: `runs` interleavings from consecutive seeds, `concurrency` at a time,
 * stopping at the first failure (the runs under way finish). Each failure comes with the seed and
 * path that replay it (`npm run test:model -- --seed S --path P`), which also shrinks it to the
 * fewest commands that still break the invariant.
 */
export async function checkOperationModel(environment: ModelEnvironment, options: ModelCheckOptions): Promise<ModelFailure[]> {
  if (options.path !== undefined) {
    const details = await fc.check(property(environment), { seed: options.seed, path: options.path, numRuns: 1, timeout: RUN_TIMEOUT_MS });
    return details.failed ? [failureOf(options.seed, details)] : [];
  }
  const failures: ModelFailure[] = [];
  let next = 0;
  const lane = async () => {
    while (next < options.runs && failures.length === 0) {
      const seed = (options.seed + next) | 0;
      next += 1;
      const details = await fc.check(property(environment), { seed, numRuns: 1, endOnFailure: true, timeout: RUN_TIMEOUT_MS });
      if (details.failed) failures.push(failureOf(seed, details));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return failures;
}

function failureOf(seed: number, details: fc.RunDetails<[Interleaving]>): ModelFailure {
  const path = details.counterexamplePath ?? '0';
  return { seed, path, report: `replay: npm run test:model -- --seed ${seed} --path ${path}\n${fc.defaultReportMessage(details) ?? ''}` };
}
