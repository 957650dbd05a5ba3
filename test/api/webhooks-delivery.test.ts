import { expect } from 'chai';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { EventRecord, EventType } from '../../domain/events';
import { recordEvent } from '../../db/repositories/events';
import { deliveryWorkflowId, WebhookDeliveryState } from '../../workflows/webhook-delivery';
import { testConfig, testDb } from '../support/stack';
import { openWebhookTestStack, WebhookTestStack } from '../support/webhook-stack';
import { buildIntegrator } from '../support/factories';
import { Answer, startReceiver, TestReceiver } from '../support/https-receiver';
import { eventually, TEST_RETRY_SCHEDULE_MS } from '../support/webhooks';

/**
 * Events recorded as rows reach a real HTTPS receiver in this process through the real
 * dispatcher, Temporal workflow and activity. The api here allows private hosts (the receiver is
 * on loopback) and the shared worker runs the short test schedule.
 */
/**
 * A failed attempt's `next_retry_at` is its schedule's delay counted from when the attempt was sent,
 * so at most the delay after the record was written (a loaded machine only shortens it), and the
 * next attempt never comes before it.
 */
function expectRetryPromise(failed: Record<string, string>, next: Record<string, string>, delayMs: number): void {
  const promised = Date.parse(failed.next_retry_at);
  expect(promised - Date.parse(failed.created_at)).to.be.at.most(delayMs + 50);
  expect(Date.parse(next.created_at)).to.be.at.least(promised);
}

describe('webhook delivery', () => {
  let stack: WebhookTestStack;

  before(async () => { stack = await openWebhookTestStack(); });
  after(() => stack.close());

  async function receiver(answer?: (n: number) => Answer | Promise<Answer>): Promise<TestReceiver> {
    const started = await startReceiver(answer);
    stack.receivers.push(started);
    return started;
  }

  async function subscribe(target: TestReceiver, events: EventType[] = ['operation.approved']) {
    const integrator = await buildIntegrator(stack.client);
    const res = await stack.client.post('/v1/webhooks', { url: target.url(), events }, { token: integrator.token });
    expect(res.status, res.text).to.equal(201);
    return { ...integrator, webhookId: res.body.id as string, secret: res.body.hmac_secret as string };
  }

  async function record(originatorId: string, eventType: EventType = 'operation.approved', data: Record<string, unknown> = {}): Promise<EventRecord> {
    const event: EventRecord = { eventId: uuidv7(), originatorId, eventType, occurredAt: new Date(), data: { originator_id: originatorId, operation_id: uuidv7(), ...data } };
    await recordEvent(testDb(), event);
    return event;
  }

  async function deliveries(token: string, webhookId: string, count: number) {
    return eventually(async () => {
      const res = await stack.client.get(`/v1/webhooks/${webhookId}/deliveries`, { token });
      expect(res.body.items).to.have.length(count);
      return res.body.items as Record<string, any>[];
    });
  }

  const outcome = (eventId: string, webhookId: string): Promise<WebhookDeliveryState> =>
    stack.temporal.client.workflow.getHandle(deliveryWorkflowId(eventId, webhookId)).result();

  it('POSTs the envelope signed over the exact bytes sent, with the Standard Webhooks headers', async () => {
    const target = await receiver();
    const sub = await subscribe(target);
    const event = await record(sub.originatorId, 'operation.approved', { display_number: 'OP-ÇÃO-1', opr_net_present_liquid_value: '9876.54' });
    const [got] = await target.waitForRequests(1);

    const hex = createHmac('sha256', sub.secret).update(got.rawBody).digest();
    expect(timingSafeEqual(hex, Buffer.from(String(got.headers['x-service-signature']), 'hex'))).to.equal(true);
    const timestamp = String(got.headers['webhook-timestamp']);
    expect(Number(timestamp)).to.be.closeTo(Date.now() / 1000, 60);
    expect(got.headers['webhook-id']).to.equal(event.eventId);
    const key = Buffer.from(sub.secret.slice('whsec_'.length), 'base64');
    const standard = createHmac('sha256', key).update(`${event.eventId}.${timestamp}.`).update(got.rawBody).digest('base64');
    expect(got.headers['webhook-signature']).to.equal(`v1,${standard}`);
    expect(got.headers['content-type']).to.equal('application/json');
    expect(got.body).to.deep.equal({
      event_type: 'operation.approved', event_id: event.eventId, occurred_at: event.occurredAt.toISOString(),
      object_id: event.data.operation_id, sequence: 1, data: event.data,
    });

    const [attempt] = await deliveries(sub.token, sub.webhookId, 1);
    expect(attempt).to.include({
      event_id: event.eventId, event_type: 'operation.approved', url: target.url(), attempt_number: 1,
      response_status_code: 200, delivered_successfully: true, next_retry_at: null, error: null,
    });
    expect(attempt.duration_ms).to.be.a('number').and.at.least(0);
    expect(await testDb()('events').where({ event_id: event.eventId }).first()).to.have.property('dispatched_at').that.is.instanceOf(Date);
  });

  it('retries a receiver that fails twice: three attempts of the same event, three records', async () => {
    const target = await receiver((n) => (n === 1 ? 500 : n === 2 ? 503 : 204));
    const sub = await subscribe(target);
    const event = await record(sub.originatorId);
    const got = await target.waitForRequests(3);
    expect(got.map((r) => r.body.event_id)).to.deep.equal([event.eventId, event.eventId, event.eventId]);
    expect(got.map((r) => r.headers['webhook-id'])).to.deep.equal([event.eventId, event.eventId, event.eventId]);
    expect(got[1].receivedAt - got[0].receivedAt).to.be.at.least(TEST_RETRY_SCHEDULE_MS[1]);
    expect(got[2].receivedAt - got[1].receivedAt).to.be.at.least(TEST_RETRY_SCHEDULE_MS[2]);

    const records = await deliveries(sub.token, sub.webhookId, 3);
    expect(records.map((r) => [r.attempt_number, r.response_status_code, r.delivered_successfully])).to.deep.equal([[3, 204, true], [2, 503, false], [1, 500, false]]);
    expect(records[0].next_retry_at).to.equal(null);
    expectRetryPromise(records[1], records[0], TEST_RETRY_SCHEDULE_MS[2]);
    expect(await outcome(event.eventId, sub.webhookId)).to.deep.equal({ attempts: 3, outcome: 'delivered' });
  });

  it('follows the whole schedule, eight attempts, then gives up visibly', async function () {
    this.timeout(30_000);
    const target = await receiver(() => 500);
    const sub = await subscribe(target);
    const event = await record(sub.originatorId);
    await target.waitForRequests(1);
    expect(await outcome(event.eventId, sub.webhookId)).to.deep.equal({ attempts: 8, outcome: 'given_up' });

    const got = target.requests;
    expect(got).to.have.length(8);
    for (let i = 1; i < 8; i += 1) expect(got[i].receivedAt - got[i - 1].receivedAt, `wait before attempt ${i + 1}`).to.be.at.least(TEST_RETRY_SCHEDULE_MS[i]);
    const records = (await deliveries(sub.token, sub.webhookId, 8)).reverse();
    expect(records.map((r) => r.attempt_number)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
    records.slice(0, 7).forEach((r, i) => expectRetryPromise(r, records[i + 1], TEST_RETRY_SCHEDULE_MS[i + 1]));
    expect(records[7]).to.include({ delivered_successfully: false, next_retry_at: null, response_status_code: 500 });
  });

  it('cuts a receiver that never answers at the configured 10 seconds', async function () {
    this.timeout(40_000);
    expect(testConfig().webhooks.timeoutMs).to.equal(10_000);
    const target = await receiver(() => 'hang');
    const sub = await subscribe(target);
    await record(sub.originatorId);
    const [attempt] = await eventually(() => deliveries(sub.token, sub.webhookId, 1), 20_000);
    expect(attempt).to.include({ response_status_code: null, delivered_successfully: false, error: 'timeout' });
    expect(attempt.duration_ms).to.be.within(10_000, 11_000);
    expect((await stack.client.delete(`/v1/webhooks/${sub.webhookId}`, { token: sub.token })).status).to.equal(204);
  });

  it('stops pending deliveries when the subscription is deleted', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    const target = await receiver(async () => { await released; return 500; });
    const sub = await subscribe(target);
    const event = await record(sub.originatorId);
    await target.waitForRequests(1);
    expect((await stack.client.delete(`/v1/webhooks/${sub.webhookId}`, { token: sub.token })).status).to.equal(204);
    release();
    expect(await outcome(event.eventId, sub.webhookId)).to.deep.equal({ attempts: 1, outcome: 'subscription_deleted' });
    await new Promise((resolve) => setTimeout(resolve, TEST_RETRY_SCHEDULE_MS[2]));
    expect(target.requests).to.have.length(1);
  });

  it('never delivers an event twice when it is dispatched again', async () => {
    const target = await receiver();
    const sub = await subscribe(target);
    const event = await record(sub.originatorId);
    await target.waitForRequests(1);
    expect(await outcome(event.eventId, sub.webhookId)).to.include({ outcome: 'delivered' });
    await testDb()('events').where({ event_id: event.eventId }).update({ dispatched_at: null });
    await testDb().raw("select pg_notify('events_recorded', '')");
    await eventually(async () => expect((await testDb()('events').where({ event_id: event.eventId }).first()).dispatched_at).to.be.instanceOf(Date));
    await new Promise((resolve) => setTimeout(resolve, TEST_RETRY_SCHEDULE_MS[1]));
    expect(target.requests).to.have.length(1);
  });

  it('delivers an event of originator A to A\'s subscription only, and only to subscribed kinds', async () => {
    const [targetA, targetB, targetOtherKind] = [await receiver(), await receiver(), await receiver()];
    const a = await subscribe(targetA);
    const b = await subscribe(targetB);
    const paidOnly = await stack.client.post('/v1/webhooks', { url: targetOtherKind.url(), events: ['operation.paid'] }, { token: a.token });
    const event = await record(a.originatorId);
    await targetA.waitForRequests(1);
    expect(await outcome(event.eventId, a.webhookId)).to.include({ outcome: 'delivered' });
    const dispatched = await stack.temporal.client.workflow.getHandle(deliveryWorkflowId(event.eventId, b.webhookId)).describe().catch(() => null);
    expect(dispatched, 'no delivery workflow for B').to.equal(null);
    expect(targetB.requests).to.have.length(0);
    expect(targetOtherKind.requests).to.have.length(0);
    expect((await stack.client.get(`/v1/webhooks/${b.webhookId}/deliveries`, { token: b.token })).body.total).to.equal(0);
    expect((await stack.client.get(`/v1/webhooks/${paidOnly.body.id}/deliveries`, { token: a.token })).body.total).to.equal(0);
  });

  it('signs with both secrets in webhook-signature after a rotation, the new one first', async () => {
    const target = await receiver();
    const sub = await subscribe(target);
    const rotated = await stack.client.post(`/v1/webhooks/${sub.webhookId}/rotate-secret`, undefined, { token: sub.token });
    const event = await record(sub.originatorId);
    const [got] = await target.waitForRequests(1);
    const signed = `${event.eventId}.${got.headers['webhook-timestamp']}.${got.rawBody.toString('utf8')}`;
    const sign = (secret: string) => `v1,${createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(signed).digest('base64')}`;
    expect(String(got.headers['webhook-signature']).split(' ')).to.deep.equal([sign(rotated.body.hmac_secret), sign(sub.secret)]);
    expect(got.headers['x-service-signature']).to.equal(createHmac('sha256', rotated.body.hmac_secret).update(got.rawBody).digest('hex'));
  });

  it('signs with the new secret alone after a rotation that ends the old one at once (previous_secret_expires_in_seconds: 0)', async () => {
    const target = await receiver();
    const sub = await subscribe(target);
    const rotated = await stack.client.post(`/v1/webhooks/${sub.webhookId}/rotate-secret`, { previous_secret_expires_in_seconds: 0 }, { token: sub.token });
    expect(rotated.status, rotated.text).to.equal(200);
    const event = await record(sub.originatorId);
    const [got] = await target.waitForRequests(1);
    const signed = `${event.eventId}.${got.headers['webhook-timestamp']}.${got.rawBody.toString('utf8')}`;
    const sign = (secret: string) => `v1,${createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(signed).digest('base64')}`;
    expect(String(got.headers['webhook-signature']).split(' ')).to.deep.equal([sign(rotated.body.hmac_secret)]);
  });

  it('re-sends a finished delivery on request, as the next attempt of the same event', async () => {
    const target = await receiver();
    const sub = await subscribe(target);
    const event = await record(sub.originatorId);
    const [first] = await deliveries(sub.token, sub.webhookId, 1);
    expect(await outcome(event.eventId, sub.webhookId)).to.include({ outcome: 'delivered' });
    const res = await stack.client.post(`/v1/webhooks/${sub.webhookId}/deliveries/${first.id}/retry`, undefined, { token: sub.token });
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.equal({ webhook_id: sub.webhookId, delivery_id: first.id, event_id: event.eventId, status: 'accepted' });
    const got = await target.waitForRequests(2);
    expect(got[1].body.event_id).to.equal(event.eventId);
    const [latest] = await deliveries(sub.token, sub.webhookId, 2);
    expect(latest).to.include({ attempt_number: 2, delivered_successfully: true, next_retry_at: null });
  });
});
