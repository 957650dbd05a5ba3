import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, makeTelemetryFilterString, Runtime, Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import searchAttributes from '../../scripts/lib/search-attributes.json';
import { ModelClock } from './model-clock';
import { ProviderGate } from './provider-gate';
import { createStandInActivities } from './stand-in-activities';
import type { OperationWorld } from './world';

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

/**
 * One time-skipping test server and one worker with the real workflow bundle and stand-in
 * activities, shared by every model run at once (each its own operation and OperationWorld).
 */
export class ModelEnvironment {
  readonly clock: ModelClock;

  private constructor(
    readonly env: TestWorkflowEnvironment, readonly worlds: Map<string, OperationWorld>, readonly gate: ProviderGate,
    private readonly worker: Worker, private readonly running: Promise<void>,
  ) {
    this.clock = new ModelClock(env);
  }

  static async start(): Promise<ModelEnvironment> {
    quietRuntime();
    const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: testServerPath() } } });
    const { IndexedValueType } = temporal.api.enums.v1;
    const types: Record<string, temporal.api.enums.v1.IndexedValueType> = {
      Keyword: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD, Int: IndexedValueType.INDEXED_VALUE_TYPE_INT, Datetime: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
    };
    await env.connection.operatorService.addSearchAttributes({
      namespace: 'default', searchAttributes: Object.fromEntries(Object.entries(searchAttributes).map(([name, type]) => [name, types[type]])),
    });
    // The server skips time whenever every workflow waits; the model runs move it themselves (ModelClock).
    await env.connection.testService!.lockTimeSkipping({});
    const worlds = new Map<string, OperationWorld>();
    const gate = new ProviderGate();
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: MODEL_TASK_QUEUE,
      workflowsPath: require.resolve('../../workflows'),
      interceptors: { workflowModules: [require.resolve('./continue-as-new-interceptor')] },
      activities: createStandInActivities({ worlds, gate, now: () => env.currentTimeMs() }),
    });
    return new ModelEnvironment(env, worlds, gate, worker, worker.run());
  }

  async stop(): Promise<void> {
    this.worker.shutdown();
    await this.running;
    await this.env.teardown();
  }
}
