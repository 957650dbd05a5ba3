import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReplayWorkerOptions, Worker } from '@temporalio/worker';
import { Resource } from '@opentelemetry/resources';
import { AlwaysOnSampler, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { HISTORIES_DIR, historyFromJson } from '../support/histories';
import { tracingOptions } from '../../worker/tracing';

/**
 * Determinism guard: every lifecycle path recorded in test/workflows/histories (by
 * `npm run histories:record`) replays against the workflow code as it is now. A change that would
 * break workflows already running fails here; record the histories again only when nothing
 * running can be affected (docs/decisions.md).
 */
describe('recorded workflow histories', function () {
  this.timeout(180_000);

  const files = readdirSync(HISTORIES_DIR).filter((file) => file.endsWith('.json')).sort();

  it('cover every lifecycle path', () => {
    const paths = [
      'happy-path', 'approval', 'denial', 'cancel-waiting-approval', 'cancel-contract-sent', 'contract-error-redispatch-esign_create_failed',
      'contract-forgotten-redispatch', 'pix-refusal-retry', 'pix-forgotten-retry', 'overdue', 'settlement',
      // A request refused by the move that won the race (test/workflows/operation-races.test.ts).
      'cancel-refused-at-signed', 'cancel-during-dispatch',
      // A long wait for signatures, and title tracking resumed from PAID (each run its own history).
      'continue-as-new-signatures', 'continue-as-new-signatures.run2', 'settlement.run2',
      // Four-eyes: one approval recorded, then a second approver's (issue #29).
      'dual-approval',
      // An operation on a sandbox test clock, advanced past its deadlines (issue #26).
      'test-clock',
      // Collection by PIX (issue #31): charges issued at PAID, paid, repeated, swept, revised, refunded and
      // removed; and a charge removed when its title turned OVERDUE.
      'pix-collection', 'pix-charge-expired',
    ];
    expect(files.map((file) => file.replace(/\.json$/, ''))).to.include.members(paths);
  });

  it('carry no sign_url or signing link in any payload (a credential never enters history)', () => {
    const decoded: string[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'data' && typeof inner === 'string') decoded.push(Buffer.from(inner, 'base64').toString('utf8'));
          else collect(inner);
        }
      }
    };
    for (const file of files) collect(JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8')));
    expect(decoded.join('\n')).to.include('CONTRACT_SENT');
    expect(decoded.filter((text) => /sign_?url|\/esign\/sign\//i.test(text))).to.deep.equal([]);
  });

  async function replayFailures(options: Partial<ReplayWorkerOptions> = {}): Promise<string[]> {
    const histories = files.map((file) => ({
      workflowId: file, history: historyFromJson(readFileSync(join(HISTORIES_DIR, file), 'utf8')),
    }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: require.resolve('../../workflows'), ...options }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    return failures;
  }

  it('replay with the current workflow code', async () => {
    expect(await replayFailures()).to.deep.equal([]);
  });

  it('replay with the tracing interceptors a worker adds when OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    const spanProcessor = new SimpleSpanProcessor(new InMemorySpanExporter());
    const { worker } = tracingOptions({ sdk: { spanProcessor, resource: new Resource({}), sampler: new AlwaysOnSampler() }, shutdown: async () => undefined });
    expect(worker.interceptors?.workflowModules).to.have.length(1);
    expect(await replayFailures({ interceptors: worker.interceptors, sinks: worker.sinks })).to.deep.equal([]);
  });
});
