import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { operationWorkflowId } from '../../domain/workflow-ids';
import type { OperationState } from '../../workflows/operation/workflow';
import { startWorker, RunningWorker } from '../../worker/main';
import { anotherApi, sharedSandbox, testConfig } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { TcpProxy } from '../support/tcp-proxy';
import { eventually } from '../support/webhooks';
import { closeTemporal, temporal } from '../support/temporal';
import { recordHistory } from '../support/histories';
import { payerPayment, simulatePayerPayment } from '../support/titles';

/**
 * Requests that race a move of the workflow, made deterministic: the worker reaches the e-sign
 * provider through a relay the test slows down or cuts, and the test waits until the provider call
 * is pending before sending the request. Its own api and worker on their own task queue.
 */
describe('operation workflow: a request racing a move', function () {
  this.timeout(180_000);
  let client: ApiClient;
  let token: string;
  let esign: TcpProxy;
  let worker: RunningWorker;
  before(async () => {
    const sandbox = await sharedSandbox();
    const provider = new URL(sandbox.esignUrl);
    esign = await TcpProxy.start({ host: provider.hostname, port: Number(provider.port) });
    const taskQueue = `races-${randomUUID()}`;
    const api = await anotherApi({ TEMPORAL_TASK_QUEUE: taskQueue });
    worker = await startWorker(testConfig({
      ESIGN_URL: `http://127.0.0.1:${esign.port}${provider.pathname}`, PIX_URL: sandbox.pixUrl, TEMPORAL_TASK_QUEUE: taskQueue, PUBLIC_URL: api.url,
    }));
    client = new ApiClient(api.url);
    ({ token } = await buildOperationsIntegrator(client));
  });
  afterEach(() => esign.restore());
  after(async () => {
    await worker.stop();
    await esign.close();
    await closeTemporal();
  });

  const workflowOf = async (operationId: string) => (await temporal()).workflow.getHandle(operationWorkflowId(operationId));

  /** Waits until the workflow has the activity `type` pending (at `attempt` or later). */
  const untilPending = (operationId: string, type: string, attempt = 1) => eventually(async () => {
    const pending = (await (await workflowOf(operationId)).describe()).raw.pendingActivities ?? [];
    expect(pending.map((a) => [a.activityType?.name, (a.attempt ?? 0) >= attempt])).to.deep.include([type, true]);
  }, 30_000);

  const timed = async <T>(call: () => Promise<T>) => {
    const started = Date.now();
    const result = await call();
    return { result, ms: Date.now() - started };
  };

  it('a cancel accepted while the last signature is being checked is refused by the move to SIGNED, at once, and the operation goes on to SETTLED', async () => {
    const created = await createDirect(client, token, directBody({ embedded_signature: true, email: `race+${randomUUID()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    esign.slow(1_500);
    await signAll(client, token, id);
    await untilPending(id, 'checkSignatures');

    const { result: cancel, ms } = await timed(() => client.post(`/v1/operations/${id}/cancel`, { reason: 'too late' }, { token }));
    expect(cancel.status, cancel.text).to.equal(409);
    expect(cancel.body).to.deep.equal({ detail: 'operation_cannot_be_cancelled' });
    expect(ms).to.be.below(2_000);

    const paid = await untilStatus(client, token, id, 'PAID');
    for (const title of paid.titles) {
      const res = await simulatePayerPayment(client, token, title.id, payerPayment({ paid_amount_brl: title.requested_net_future_value }));
      expect(res.status, res.text).to.equal(201);
    }
    expect(await (await workflowOf(id)).result() as OperationState).to.include({ status: 'SETTLED' });
    await recordHistory('cancel-refused-at-signed', id);
  });

  it('while the automatic dispatch retries through an e-sign outage, a re-dispatch is refused at once and a cancel stops the retries: CANCELLED within 2 s', async () => {
    esign.cut();
    const created = await createDirect(client, token, directBody({ email: `outage+${randomUUID()}@example.com` }));
    const id = created.body.id;
    await untilPending(id, 'dispatchContract', 2);

    const { result: redispatch, ms: redispatchMs } = await timed(() => client.post(`/v1/operations/${id}/contract/send-for-signature`, {}, { token }));
    expect(redispatch.body, redispatch.text).to.deep.equal({ detail: 'contract_already_exists' });
    expect(redispatchMs).to.be.below(2_000);

    const { result: cancel, ms } = await timed(() => client.post(`/v1/operations/${id}/cancel`, { reason: 'provider down' }, { token }));
    expect(cancel.status, cancel.text).to.equal(200);
    expect(cancel.body.lifecycle_status).to.equal('CANCELLED');
    expect(ms).to.be.below(2_000);
    expect(await (await workflowOf(id)).result() as OperationState).to.include({ status: 'CANCELLED' });
    await recordHistory('cancel-during-dispatch', id);
  });
});
