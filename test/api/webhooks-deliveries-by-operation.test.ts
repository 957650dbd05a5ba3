import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { openWebhookTestStack, WebhookTestStack } from '../support/webhook-stack';
import { buildIntegrator } from '../support/factories';
import { startReceiver } from '../support/https-receiver';
import { eventually } from '../support/webhooks';
import { recordOperationEvent } from '../support/events';

/** `GET /v1/webhooks/{id}/deliveries?operation_id=`: the attempts that carried one operation's story, and no other's. */
describe('a webhook\'s deliveries of one operation', function () {
  this.timeout(60_000);
  let stack: WebhookTestStack;

  before(async () => { stack = await openWebhookTestStack(); });
  after(() => stack.close());

  it('keeps the attempts whose events are the operation\'s, with a total of those alone', async () => {
    const receiver = await startReceiver();
    stack.receivers.push(receiver);
    const integrator = await buildIntegrator(stack.client);
    const hook = await stack.client.post('/v1/webhooks', { url: receiver.url(), events: ['operation.approved'] }, { token: integrator.token });
    expect(hook.status, hook.text).to.equal(201);
    const [mine, other] = [uuidv7(), uuidv7()];
    const events = { [mine]: [] as string[], [other]: [] as string[] };
    for (const operation of [mine, other, mine]) events[operation].push(await recordOperationEvent(integrator.originatorId, { objectId: operation }));
    const deliveries = (query: string) => stack.client.get(`/v1/webhooks/${hook.body.id}/deliveries?${query}`, { token: integrator.token });
    await eventually(async () => expect((await deliveries('limit=100')).body.total).to.equal(3));

    const res = await deliveries(`operation_id=${mine}&limit=100`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.total).to.equal(2);
    expect(res.body.items.map((d: { event_id: string }) => d.event_id).sort()).to.deep.equal([...events[mine]].sort());
    expect((await deliveries(`operation_id=${uuidv7()}`)).body).to.include({ total: 0 });
  });
});
