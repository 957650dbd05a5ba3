import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startWorker, RunningWorker } from '../../worker/main';
import { anotherApi, providerUrls, sharedApi, sharedWorker, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { eventually } from '../support/webhooks';
import { readTitle } from '../support/titles';
import { collectOnPix } from '../support/pix-collection';
import { untilPaid } from '../support/lifecycle';
import { closeTemporal } from '../support/temporal';

/**
 * The fault run's case: one operation's workflow stops answering updates while Temporal and the
 * other workers go on. Here that operation runs on a task queue of its own whose worker is stopped
 * once its title's charge is issued; the sweep's api waits 4 s on an update instead of 20.
 */
const UPDATE_DEADLINE_MS = 4_000;
describe('the collection sweep and an operation whose workflow does not answer', function () {
  this.timeout(240_000);
  const taskQueue = `unanswered-${randomUUID()}`;
  const stack = {} as { apiUrl: string; stuckApi: ApiClient; token: string; backoffice: string; worker?: RunningWorker };
  /** The worker of the task queue of its own, the only one that runs the stuck operation's workflow. */
  const startQueueWorker = async () => {
    stack.worker = await startWorker(testConfig({ ...(await providerUrls()), TEMPORAL_TASK_QUEUE: taskQueue, PUBLIC_URL: stack.apiUrl }));
  };
  after(async () => {
    await stack.worker?.stop();
    await closeTemporal();
  });
  before(async () => {
    stack.apiUrl = (await anotherApi({ TEMPORAL_TASK_QUEUE: taskQueue, TEMPORAL_UPDATE_DEADLINE_MS: String(UPDATE_DEADLINE_MS) })).url;
    stack.stuckApi = new ApiClient(stack.apiUrl);
    await sharedWorker();
    const integrator = await buildOperationsIntegrator(stack.stuckApi);
    stack.token = integrator.token;
    await collectOnPix(integrator.originatorId);
    stack.backoffice = await loginAs(stack.stuckApi, await buildUser());
    await startQueueWorker();
  });

  /** An operation of one title, created through `client` (its api's task queue runs its workflow), PAID with its charge issued. */
  const chargedTitle = async (client: ApiClient) => {
    const created = await createDirect(client, stack.token, directBody({ email: `unanswered+${randomUUID()}@example.com` }));
    expect(created.status, created.text).to.equal(201);
    await untilPaid(client, stack.token, created.body.id);
    const titleId: string = created.body.titles[0].id;
    await eventually(async () => expect((await readTitle(client, stack.token, titleId)).pix_charge, 'no charge yet').to.not.equal(null));
    return titleId;
  };
  const payLost = async (client: ApiClient, titleId: string) => {
    const res = await client.post(`/v1/sandbox/titles/${titleId}/pix`, { webhook: 'lost' }, { token: stack.token });
    expect(res.status, res.text).to.equal(202);
    return res.body.end_to_end_id as string;
  };
  const paymentsOf = (titleId: string) => testDb()('title_payments').where({ title_id: titleId });

  it('applies the PIX listed after one whose workflow lets the update time out, answers 503 naming it, and applies it once the workflow answers again', async () => {
    const sharedClient = new ApiClient((await sharedApi()).url);
    const stuckTitle = await chargedTitle(stack.stuckApi);
    const otherTitle = await chargedTitle(sharedClient);
    await stack.worker!.stop();
    stack.worker = undefined;
    const stuck = await payLost(stack.stuckApi, stuckTitle);
    const other = await payLost(sharedClient, otherTitle);

    const sweep = await stack.stuckApi.post('/v1/backoffice/collection/sweep', undefined, { token: stack.backoffice });
    expect((await paymentsOf(otherTitle)).map((p) => [p.external_id, p.recorded_by]), 'the PIX after the unanswered one').to.deep.equal([[other, 'psp:sweep']]);
    expect(await readTitle(sharedClient, stack.token, otherTitle)).to.include({ status: 'PAID' });
    expect(sweep.status, sweep.text).to.equal(503);
    expect(sweep.body.detail.code).to.equal('collection_sweep_incomplete');
    expect(sweep.body.detail.unapplied).to.deep.include({ end_to_end_id: stuck, txid: stuckTitle.replace(/-/g, ''), code: 'workflow_unavailable' });
    expect(await paymentsOf(stuckTitle)).to.have.length(0);

    await startQueueWorker();
    await eventually(async () => {
      const again = await stack.stuckApi.post('/v1/backoffice/collection/sweep', undefined, { token: stack.backoffice });
      expect(again.status, again.text).to.equal(200);
    }, 60_000);
    expect(await readTitle(stack.stuckApi, stack.token, stuckTitle)).to.include({ status: 'PAID' });
    expect((await paymentsOf(stuckTitle)).map((p) => p.external_id)).to.deep.equal([stuck]);
  });
});
