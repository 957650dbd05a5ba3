import { expect } from 'chai';
import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { anotherApi, sharedApi, sharedWorker, testDb, sandboxCallbackSecrets } from '../support/stack';
import { ApiClient } from '../support/http';
import { startChild } from '../support/child-process';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { ownQueueWithProxiedDatabase, WORKER_READY } from '../support/reliability';
import { simulatePayerPayment } from '../support/titles';
import { eventually } from '../support/webhooks';
import { connectTestClient } from '../support/temporal';
import { startSandbox, RunningSandbox } from '../../sandbox/server';

describe('crash recovery', function () {
  this.timeout(180_000);
  let temporal: Client;
  before(async () => {
    temporal = await connectTestClient(true);
  });
  after(async () => temporal.connection.close());

  it('when the api dies between commit and workflow start, the relay starts exactly one workflow, visible by DisplayNumber', async () => {
    const shared = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    const { credential, token } = await buildOperationsIntegrator(shared);
    // This api cannot reach Temporal, so its after-commit start fails: the state a crash at that point leaves.
    const doomed = await startChild('api/server.ts', {
      DATABASE_URL: process.env.DATABASE_URL!, TEMPORAL_ADDRESS: '127.0.0.1:1', PORT: '0', LOG_LEVEL: 'error', SERVICE_ENV: 'dev',
    }, /api listening on (http:\/\/[\d.:]+)/);
    const res = await createDirect(new ApiClient(doomed.match[1]), token);
    await doomed.kill();
    expect(res.status, res.text).to.equal(201);
    expect(credential.originatorId).to.be.a('string');

    await untilStatus(shared, token, res.body.id, 'CONTRACT_SENT');
    const found = await eventually(async () => {
      const executions = [];
      for await (const execution of temporal.workflow.list({ query: `DisplayNumber = "${res.body.display_number}"` })) executions.push(execution);
      expect(executions).to.have.length(1);
      return executions;
    });
    expect(found[0].workflowId).to.equal(`operation-${res.body.id}`);
    const outbox = await testDb()('workflow_outbox').where({ workflow_id: `operation-${res.body.id}` }).first();
    expect(outbox.started_at, 'the relay marks the entry started').to.not.equal(null);
  });

  it('when the worker running a workflow task dies, a payer payment waiting on it is answered 201 within the update deadline', async () => {
    const { client, proxy, workerEnv, proxiedDatabaseUrl } = await ownQueueWithProxiedDatabase();
    const ready = WORKER_READY;
    const dying = await startChild('worker/main.ts', { ...workerEnv, DATABASE_URL: proxiedDatabaseUrl }, ready);
    let survivor;
    try {
      const { token } = await buildOperationsIntegrator(client);
      const created = await createDirect(client, token);
      await untilStatus(client, token, created.body.id, 'CONTRACT_SENT', 60_000);
      await signAll(client, token, created.body.id);
      await untilStatus(client, token, created.body.id, 'PAID', 60_000);
      // The first worker has the workflow cached, so the payment's task goes to it; its local
      // activity then hangs on the frozen database until the worker is killed. The task is offered
      // to the other worker once its 10 s timeout passes, within the api's update deadline.
      survivor = await startChild('worker/main.ts', workerEnv, ready);
      proxy.freeze();
      const paying = simulatePayerPayment(client, token, created.body.titles[0].id, { paid_amount_brl: '100.00', external_id: `boleto-${randomUUID()}` });
      await new Promise((r) => setTimeout(r, 1_500));
      await dying.kill();
      const res = await paying;
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ paid_amount_brl: '100.00', title_status: 'PARTIALLY_PAID' });
    } finally {
      proxy.restore();
      await dying.kill();
      await survivor?.kill('SIGTERM');
      await proxy.close();
    }
  });

  describe('when the worker dies during disbursement', () => {
    let sandbox: RunningSandbox;
    before(async () => {
      sandbox = await startSandbox({ port: 0, settlementDelayMs: 50, slowSettlementDelayMs: 6_000, callbackRetryDelayMs: 200, logLevel: 'error', callbackSecrets: sandboxCallbackSecrets() });
    });
    after(async () => sandbox.close());

    it('pays exactly once and the operation still reaches PAID', async () => {
      const taskQueue = `reliability-${randomUUID()}`;
      const providers = { ESIGN_URL: sandbox.esignUrl, PIX_URL: sandbox.pixUrl, TEMPORAL_TASK_QUEUE: taskQueue };
      const api = await anotherApi(providers);
      const client = new ApiClient(api.url);
      const workerEnv = {
        ...providers, DATABASE_URL: process.env.DATABASE_URL!, TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS!,
        PUBLIC_URL: api.url, LOG_LEVEL: 'error', SERVICE_ENV: 'dev',
      };
      const ready = /worker polling task queue/;
      let worker = await startChild('worker/main.ts', workerEnv, ready);
      const { token } = await buildOperationsIntegrator(client);
      const created = await createDirect(client, token, directBody({ email: `pix-slow+${Date.now()}@example.com` }));
      const id = created.body.id;
      await untilStatus(client, token, id, 'CONTRACT_SENT', 60_000);
      await signAll(client, token, id);
      await untilStatus(client, token, id, 'DISBURSING', 60_000);

      await worker.kill();
      worker = await startChild('worker/main.ts', workerEnv, ready);
      try {
        // A PIX call in flight when the worker died is retried once its start-to-close timeout (30 s) has passed.
        const paid = await untilStatus(client, token, id, 'PAID', 120_000);
        const key = `operation-${id}-pix-1`;
        const payments: any = await (await fetch(`${sandbox.pixUrl}/payments?idempotency_key=${encodeURIComponent(key)}`)).json();
        expect(payments.payments).to.have.length(1);
        expect(payments.payments[0]).to.include({ status: 'SETTLED', amount: paid.opr_net_present_liquid_value });
        const second: any = await (await fetch(`${sandbox.pixUrl}/payments?idempotency_key=${encodeURIComponent(`operation-${id}-pix-2`)}`)).json();
        expect(second.payments).to.have.length(0);
        expect(await testDb()('disbursements').where({ operation_id: id })).to.have.length(1);
      } finally {
        await worker.kill('SIGTERM');
      }
    });
  });
});
