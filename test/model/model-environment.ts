import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, makeTelemetryFilterString, Runtime, Worker, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import searchAttributes from '../../scripts/lib/search-attributes.json';
import { ProviderGate } from './provider-gate';
import { createStandInActivities } from './stand-in-activities';
import type { OperationWorld } from './world';
import { EscrituradorLane } from './escriturador-lane';

const ROOT = join(__dirname, '..', '..');
export const MODEL_TASK_QUEUE = 'operation-model';

/** The pinned time-skipping test server, installed into .tools/ on first use (scripts/lib/test-server.mjs). */
function testServerPath(): string {
  return execFileSync(process.execPath, [join(ROOT, 'scripts', 'lib', 'test-server.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

function quietRuntime(): void {
  try {
    Runtime.install({
      logger: new DefaultLogger('ERROR'),
      telemetryOptions: { logging: { forward: {}, filter: makeTelemetryFilterString({ core: 'ERROR' }) } },
    });
  } catch {
    // Installed already by a worker an earlier test file of this process started: the runtime is global.
  }
}

/** The skip each run ends with, to see that time still skips: longer than any timer a run leaves behind. */
const TIME_SKIP_PROBE_MS = 3_600_000;
/**
 * How the probe tells a stuck server from a slow one: a server that cannot skip (a time-skipping
 * lock some workflow still holds) moves its clock at real time's pace, one that skips moves it by
 * the timers it fires, many times faster however loaded the machine. So the server's clock is read
 * every `TIME_SKIP_PROGRESS_WINDOW_MS` of real time while the skip runs, and must have moved more
 * than twice that each time. A fixed bound on the whole skip failed the first runs of a
 * fresh-clone CI twice (15 s, then 60 s: six lanes' JVM test servers starting cold on 2 cores),
 * where the same seed and path pass alone in 3 s. The skip may still take `TIME_SKIP_CHECK_MS` at
 * most, far below the hour a stuck server would wait.
 */
const TIME_SKIP_PROGRESS_WINDOW_MS = 20_000;
const TIME_SKIP_CHECK_MS = 600_000;

/** How many times a test server may fail to start: the SDK gives the JVM 5 s, which a loaded machine can exceed. */
const SERVER_START_ATTEMPTS = 3;

async function startTestServer(): Promise<TestWorkflowEnvironment> {
  const path = testServerPath();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
    } catch (err) {
      if (attempt === SERVER_START_ATTEMPTS) throw err;
    }
  }
}

/** The real workflow code (workflows/), bundled once for every environment, with the continue-as-new stand-in. */
export function bundleModelWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  quietRuntime();
  return bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    workflowInterceptorModules: [require.resolve('./continue-as-new-interceptor')],
    logger: new DefaultLogger('ERROR'),
  });
}

/**
 * One time-skipping test server and one worker with the real workflow bundle and stand-in
 * activities. Model runs on one environment run one after the other, so time moves only when the
 * run under way asks (time is global to a test server); runs go in parallel on several.
 */
export class ModelEnvironment {
  readonly worlds = new Map<string, OperationWorld>();
  readonly gate = new ProviderGate();
  /** Why the worker stopped on its own: every step then fails at once instead of waiting for it. */
  workerFailure: unknown = null;
  /** The lane's sandbox escriturador, renewed with its server. */
  escriturador!: EscrituradorLane;
  private server!: TestWorkflowEnvironment;
  private worker!: Worker;
  private running!: Promise<void>;

  private constructor(private readonly bundle: WorkflowBundleWithSourceMap) {}

  static async start(bundle: WorkflowBundleWithSourceMap): Promise<ModelEnvironment> {
    const model = new ModelEnvironment(bundle);
    await model.open();
    return model;
  }

  get env(): TestWorkflowEnvironment {
    return this.server;
  }

  private async open(): Promise<void> {
    const env = await startTestServer();
    const { IndexedValueType } = temporal.api.enums.v1;
    const types: Record<string, temporal.api.enums.v1.IndexedValueType> = {
      Keyword: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD, Int: IndexedValueType.INDEXED_VALUE_TYPE_INT, Datetime: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
    };
    await env.connection.operatorService.addSearchAttributes({
      namespace: 'default', searchAttributes: Object.fromEntries(Object.entries(searchAttributes).map(([name, type]) => [name, types[type]])),
    });
    // The server skips time whenever every workflow waits; a model run moves it itself (`advance`).
    await env.connection.testService!.lockTimeSkipping({});
    this.server = env;
    this.escriturador = await EscrituradorLane.start();
    this.workerFailure = null;
    this.worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: MODEL_TASK_QUEUE,
      workflowBundle: this.bundle,
      activities: createStandInActivities({ worlds: this.worlds, gate: this.gate, now: () => env.currentTimeMs() }),
    });
    this.running = this.worker.run().catch((err: unknown) => {
      this.workerFailure = err;
    });
  }

  /**
   * A fresh test server and worker for the lane's next runs, after a closed run left this server
   * unable to skip time: a lock of the server's own bookkeeping (leaveLaneSkipping, test/model/operation-model.ts).
   */
  async renew(): Promise<void> {
    await this.stop();
    await this.open();
  }

  /** The test server's clock, which the workflow's own `Date.now()` follows. */
  now(): Promise<number> {
    return this.env.currentTimeMs();
  }

  /**
   * Skips `ms` of workflow time: every timer due meanwhile fires, in order. (Not the SDK's
   * `result()`, which would leave time skipping unlocked while it waits.)
   */
  advance(ms: number): Promise<void> {
    return this.env.sleep(ms);
  }

  /**
   * Fails the run that left the server unable to skip time (a time-skipping lock some workflow
   * still holds), rather than the next run of the lane, whose timers would wait in real time
   * until its property timeout.
   */
  async checkTimeSkips(windowMs = TIME_SKIP_PROGRESS_WINDOW_MS): Promise<void> {
    const started = Date.now();
    let mark = { real: started, server: await this.now() };
    // The skip is given up when the probe fails: left pending, it would be retried on a closed
    // connection once the lane tears its environment down, an error thrown from a timer.
    const giveUp = new AbortController();
    const skipped = this.env.connection.withAbortSignal(giveUp.signal, () => this.advance(TIME_SKIP_PROBE_MS)).then(() => true as const);
    try {
      for (;;) {
        let waited: NodeJS.Timeout | undefined;
        const window = new Promise<false>((resolve) => { waited = setTimeout(() => resolve(false), windowMs); });
        if (await Promise.race([skipped, window]).finally(() => clearTimeout(waited))) return;
        const reading = { real: Date.now(), server: await this.now() };
        const moved = reading.server - mark.server;
        if (moved <= 2 * (reading.real - mark.real)) {
          throw new Error(`time skipping is stuck after this run: asked to skip ${TIME_SKIP_PROBE_MS} ms, the test server's clock moved ${moved} ms in ${reading.real - mark.real} ms of real time`);
        }
        if (reading.real - started >= TIME_SKIP_CHECK_MS) {
          throw new Error(`time skipping is too slow after this run: a skip of ${TIME_SKIP_PROBE_MS} ms of workflow time took more than ${TIME_SKIP_CHECK_MS} ms of real time`);
        }
        mark = reading;
      }
    } catch (err) {
      giveUp.abort();
      await skipped.catch(() => undefined);
      throw err;
    }
  }

  async stop(): Promise<void> {
    if (this.worker.getState() === 'RUNNING') this.worker.shutdown();
    await this.running;
    await this.escriturador.stop();
    await this.env.teardown();
  }
}
