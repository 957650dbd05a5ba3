import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, RunningSandbox } from '../../sandbox/server';
import { startWorker, RunningWorker } from '../../worker/main';
import { anotherApi, sandboxCallbackSecrets, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { untilStatus } from '../support/lifecycle';

const RESTART_MS = 10_000;

/**
 * The e-sign provider restarts (down for 10 s, its state kept in its file, as `sandbox/main.ts`
 * runs it) while contracts are being dispatched: the automatic dispatch retries with backoff
 * across about two minutes, so every operation reaches CONTRACT_SENT and none waits in
 * CONTRACT_ERROR for a human.
 */
describe('an e-sign provider restart during contract dispatch', function () {
  this.timeout(180_000);
  const stateDir = mkdtempSync(join(tmpdir(), 'esign-restart-'));
  const sandboxOptions = {
    settlementDelayMs: 50, callbackRetryDelayMs: 200, logLevel: 'error', callbackSecrets: sandboxCallbackSecrets(), stateFile: join(stateDir, 'sandbox.json'),
  };
  let sandbox: RunningSandbox;
  let worker: RunningWorker;
  let client: ApiClient;
  let token: string;
  before(async () => {
    sandbox = await startSandbox({ port: 0, ...sandboxOptions });
    const taskQueue = `esign-restart-${randomUUID()}`;
    const providers = { ESIGN_URL: sandbox.esignUrl, PIX_URL: sandbox.pixUrl, TEMPORAL_TASK_QUEUE: taskQueue };
    const api = await anotherApi(providers);
    worker = await startWorker(testConfig({ ...providers, PUBLIC_URL: api.url }));
    client = new ApiClient(api.url);
    ({ token } = await buildOperationsIntegrator(client));
  });
  after(async () => {
    await worker.stop();
    await sandbox.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('leaves no operation in CONTRACT_ERROR: each dispatch retries until the provider is back and reaches CONTRACT_SENT', async () => {
    const port = Number(new URL(sandbox.url).port);
    const create = async () => {
      const res = await createDirect(client, token, directBody({ email: `restart+${randomUUID()}@example.com` }));
      expect(res.status, res.text).to.equal(201);
      return res.body.id as string;
    };
    const racing = create();
    await sandbox.close();
    const ids = [await racing, ...(await Promise.all([create(), create(), create()]))];
    await sleep(RESTART_MS);
    sandbox = await startSandbox({ port, ...sandboxOptions });

    for (const id of ids) await untilStatus(client, token, id, 'CONTRACT_SENT', 120_000);
    // A CONTRACT_ERROR would have left its contract ERROR, and only a human re-dispatch a second one.
    const contracts = await testDb()('contracts').whereIn('operation_id', ids);
    expect(contracts.map((c) => c.status)).to.deep.equal(ids.map(() => 'SENT'));
  });
});
