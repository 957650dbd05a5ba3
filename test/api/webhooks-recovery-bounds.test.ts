import { expect } from 'chai';
import { openWebhookTestStack, WebhookTestStack } from '../support/webhook-stack';
import { buildIntegrator } from '../support/factories';
import { startReceiver } from '../support/https-receiver';
import { recordOperationEvent } from '../support/events';
import { testDb } from '../support/stack';

/** Recoveries are bounded: one running per endpoint, and their POSTs under the endpoint's `max_per_second`. */
describe('webhook recoveries: one at a time, within max_per_second', function () {
  this.timeout(120_000);
  let stack: WebhookTestStack;
  before(async () => { stack = await openWebhookTestStack(); });
  after(() => stack.close());

  async function subscribe(answer: number, extra: Record<string, unknown> = {}) {
    const receiver = await startReceiver(() => answer);
    stack.receivers.push(receiver);
    const integrator = await buildIntegrator(stack.client);
    const res = await stack.client.post('/v1/webhooks', { url: receiver.url(), events: ['operation.approved'], ...extra }, { token: integrator.token });
    expect(res.status, res.text).to.equal(201);
    return { ...integrator, receiver, webhookId: res.body.id as string, createdAt: new Date(res.body.created_at as string) };
  }
  // A window from the endpoint's creation: an earlier one is refused (recover_window_before_endpoint).
  const recover = (sub: { webhookId: string; token: string; createdAt: Date }) =>
    stack.client.post(`/v1/webhooks/${sub.webhookId}/recover`, { since: sub.createdAt.toISOString() }, { token: sub.token });

  it('refuses a second recovery while the first runs (409 webhook_recovery_running naming it), also when both are asked at once', async () => {
    const sub = await subscribe(503);
    await recordOperationEvent(sub.originatorId);
    const first = await recover(sub);
    expect(first.status, first.text).to.equal(202);
    const second = await recover(sub);
    expect(second.status, second.text).to.equal(409);
    expect(second.body.detail).to.include({ code: 'webhook_recovery_running', recovery_id: first.body.id });

    const other = await subscribe(503);
    await recordOperationEvent(other.originatorId);
    const together = await Promise.all([recover(other), recover(other), recover(other)]);
    expect(together.map((r) => r.status).sort(), together.map((r) => r.text).join(' | ')).to.deep.equal([202, 409, 409]);
  });

  it('sends a recovery\'s events no faster than max_per_second', async () => {
    const sub = await subscribe(200, { max_per_second: 1 });
    for (let i = 0; i < 4; i += 1) await recordOperationEvent(sub.originatorId);
    await sub.receiver.waitForRequests(4, 30_000);
    const started = await recover(sub);
    expect(started.status, started.text).to.equal(202);
    await sub.receiver.waitForRequests(8, 30_000);
    // The sender's own slots, one a second: arrival times at the receiver bunch up on a loaded
    // machine, where a POST sent late in one second lands with the next second's.
    const slots: Array<{ sent: number }> = await testDb()('webhook_throttle').where({ subscription_id: sub.webhookId }).select('sent');
    expect(slots.map((s) => s.sent), 'one POST a second, the first deliveries and the recovery\'s').to.deep.equal([1, 1, 1, 1, 1, 1, 1, 1]);
  });
});
