import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import type { EventType } from '../../domain/events';
import { deliveryWorkflowId, WebhookDeliveryState } from '../../workflows/webhook-delivery';
import { openWebhookTestStack, WebhookTestStack } from '../support/webhook-stack';
import { buildIntegrator } from '../support/factories';
import { startReceiver, TestReceiver } from '../support/https-receiver';
import { eventually, TEST_DISABLE_AFTER_MS } from '../support/webhooks';
import { listEvents, recordOperationEvent } from '../support/events';
import { patientApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';

/**
 * Issue #27 over the real dispatcher, workflows and an HTTPS receiver: a receiver down for a
 * window gets exactly what it missed from `recover`, in each object's order; an endpoint failing
 * for the whole span (`WEBHOOK_DISABLE_AFTER_MS`, 15 s under test for 5 days) is disabled with an
 * operational event, and enabling it re-delivers what it missed; `max_per_second` paces POSTs.
 */
describe('webhook recovery, endpoint health and throttle', function () {
  this.timeout(120_000);
  let stack: WebhookTestStack;

  before(async () => { stack = await openWebhookTestStack(); });
  after(() => stack.close());

  /** A receiver that answers 503 while `down`, 200 otherwise. */
  async function switchable() {
    const state = { down: false };
    const receiver = await startReceiver(() => (state.down ? 503 : 200));
    stack.receivers.push(receiver);
    return { receiver, state };
  }

  async function subscribe(receiver: TestReceiver, extra: Record<string, unknown> = {}, events: EventType[] = ['operation.approved', 'webhook_endpoint.disabled']) {
    const integrator = await buildIntegrator(stack.client);
    const res = await stack.client.post('/v1/webhooks', { url: receiver.url(), events, ...extra }, { token: integrator.token });
    expect(res.status, res.text).to.equal(201);
    return { ...integrator, webhookId: res.body.id as string, webhook: res.body };
  }

  const outcome = (eventId: string, webhookId: string): Promise<WebhookDeliveryState> =>
    stack.temporal.client.workflow.getHandle(deliveryWorkflowId(eventId, webhookId)).result();
  const undelivered = async (token: string) => (await listEvents(stack.client, token, 'delivery_success=false')).items.map((e) => e.event_id).sort();

  async function finishedRecovery(token: string, webhookId: string, recoveryId: string) {
    return eventually(async () => {
      const res = await stack.client.get(`/v1/webhooks/${webhookId}/recoveries/${recoveryId}`, { token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.status).to.equal('completed');
      return res.body;
    }, 30_000);
  }

  it('re-delivers exactly the events a receiver missed while down, in each object\'s sequence order, and they stop counting as undelivered', async () => {
    const { receiver, state } = await switchable();
    const sub = await subscribe(receiver);
    const before = await recordOperationEvent(sub.originatorId);
    await receiver.waitForRequests(1);
    await eventually(async () => expect(await undelivered(sub.token)).to.deep.equal([]));

    state.down = true;
    const since = new Date();
    const [a, b] = [uuidv7(), uuidv7()];
    const missed: string[] = [];
    for (const object of [a, b, a, b, a]) missed.push(await recordOperationEvent(sub.originatorId, { objectId: object }));
    const until = new Date(Date.now() + 1);
    // The dispatcher starts each delivery just after its event commits: wait for the workflow to exist, then for its end.
    for (const eventId of missed) expect(await eventually(() => outcome(eventId, sub.webhookId), 30_000)).to.include({ outcome: 'given_up' });
    expect(await undelivered(sub.token)).to.deep.equal([...missed].sort());

    state.down = false;
    const seen = receiver.requests.length;
    const started = await stack.client.post(`/v1/webhooks/${sub.webhookId}/recover`, { since: since.toISOString(), until: until.toISOString() }, { token: sub.token });
    expect(started.status, started.text).to.equal(202);
    expect(started.body).to.include({ webhook_id: sub.webhookId, status: 'running', total: 5 });
    const done = await finishedRecovery(sub.token, sub.webhookId, started.body.id);
    expect(done).to.include({ delivered: 5, total: 5, failed_event_id: null });

    const recovered = receiver.requests.slice(seen).map((r) => r.body);
    expect(recovered.map((e) => e.event_id)).to.deep.equal(missed);
    expect(recovered.map((e) => e.event_id)).not.to.include(before);
    for (const object of [a, b]) {
      const sequences = recovered.filter((e) => e.object_id === object).map((e) => e.sequence);
      expect(sequences).to.deep.equal([...sequences].sort((x, y) => x - y)).and.to.have.length.above(1);
    }
    expect(await undelivered(sub.token)).to.deep.equal([]);
    const received = (await listEvents(stack.client, sub.token, 'delivery_success=true')).items.map((e) => e.event_id);
    expect(received).to.include.members([...missed, before]);
  });

  it('disables an endpoint whose every delivery failed for the whole span, records webhook_endpoint.disabled, and enabling it recovers what it missed', async function () {
    this.timeout(90_000);
    const { receiver, state } = await switchable();
    state.down = true;
    const sub = await subscribe(receiver);
    const disabled = await eventually(async () => {
      await recordOperationEvent(sub.originatorId);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const res = await stack.client.get('/v1/webhooks', { token: sub.token });
      const webhook = res.body.items.find((w: { id: string }) => w.id === sub.webhookId);
      expect(webhook.status).to.equal('disabled');
      return webhook;
    }, TEST_DISABLE_AFTER_MS * 4);
    expect(disabled).to.include({ disabled_reason: 'deliveries_failing', last_success_at: null });
    expect(Date.parse(disabled.disabled_at) - Date.parse(disabled.failing_since)).to.be.at.least(TEST_DISABLE_AFTER_MS);
    const [operational] = (await listEvents(stack.client, sub.token, 'type=webhook_endpoint.disabled')).items;
    expect(operational).to.include({ object_id: sub.webhookId, sequence: 1 });
    expect(operational.data).to.include({ webhook_id: sub.webhookId, disabled_reason: 'deliveries_failing' });

    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const quiet = receiver.requests.length;
    const whileDisabled = await recordOperationEvent(sub.originatorId);
    await eventually(async () => expect(await undelivered(sub.token)).to.include(whileDisabled));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.requests.length).to.equal(quiet);

    state.down = false;
    const enabled = await stack.client.post(`/v1/webhooks/${sub.webhookId}/enable`, { recover: true }, { token: sub.token });
    expect(enabled.status, enabled.text).to.equal(200);
    expect(enabled.body).to.include({ status: 'enabled', disabled_reason: null, failure_streak: 0 });
    await finishedRecovery(sub.token, sub.webhookId, enabled.body.recovery.id);
    expect(receiver.requests.slice(quiet).map((r) => r.body.event_id)).to.include(whileDisabled);
    expect(await undelivered(sub.token)).not.to.include(whileDisabled);
  });

  it('enables with recovery when the recovery workflow\'s first step reaches the database before the request\'s insert', async () => {
    // A trigger holds for 2 s every insert of a recovery made by a transaction that has already
    // written (enable's has: it locked and updated the endpoint), so a workflow started before that
    // insert would write the row first and wait on the endpoint's lock while the request waits on
    // its row: the deadlock a CI run answered with a 500. The api here may wait on Postgres that long.
    const patient = new ApiClient((await patientApi({ WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' })).url);
    const { receiver } = await switchable();
    const sub = await subscribe(receiver);
    await testDb()('webhook_subscriptions').where({ id: sub.webhookId })
      .update({ status: 'disabled', disabled_reason: 'deliveries_failing', disabled_at: new Date(Date.now() - 60_000) });
    await testDb().raw(`create function hold_written_recovery_insert() returns trigger language plpgsql as $$
      begin if txid_current_if_assigned() is not null then perform pg_sleep(2); end if; return new; end $$`);
    await testDb().raw('create trigger hold_written_recovery_insert before insert on webhook_recoveries for each row execute function hold_written_recovery_insert()');
    try {
      const enabled = await patient.post(`/v1/webhooks/${sub.webhookId}/enable`, { recover: true }, { token: sub.token });
      expect(enabled.status, enabled.text).to.equal(200);
      expect(enabled.body).to.include({ status: 'enabled' });
      await finishedRecovery(sub.token, sub.webhookId, enabled.body.recovery.id);
    } finally {
      await testDb().raw('drop trigger hold_written_recovery_insert on webhook_recoveries');
      await testDb().raw('drop function hold_written_recovery_insert()');
    }
  });

  it('paces POSTs to max_per_second', async () => {
    const { receiver } = await switchable();
    const sub = await subscribe(receiver, { max_per_second: 2 });
    expect(sub.webhook.max_per_second).to.equal(2);
    for (let i = 0; i < 6; i += 1) await recordOperationEvent(sub.originatorId);
    await receiver.waitForRequests(6, 20_000);
    // Judged on the sender's clock, by the slots it took: arrival times at the receiver bunch up
    // on a loaded machine, where a POST sent late in one second lands with the next second's.
    const slots: Array<{ second: string; sent: number }> = await testDb()('webhook_throttle')
      .where({ subscription_id: sub.webhookId }).select('second', 'sent');
    expect(slots.reduce((sum, s) => sum + s.sent, 0)).to.equal(6);
    expect(Math.max(...slots.map((s) => s.sent))).to.equal(2);
    expect(slots).to.have.length.of.at.least(3);
  });

  it('refuses an empty or expired window, or one starting before the endpoint existed, and answers 404 for another originator\'s recovery', async () => {
    const { receiver } = await switchable();
    const sub = await subscribe(receiver);
    const other = await buildIntegrator(stack.client);
    const now = Date.now();
    const empty = await stack.client.post(`/v1/webhooks/${sub.webhookId}/recover`, { since: new Date(now + 60_000).toISOString() }, { token: sub.token });
    expect(empty.status).to.equal(422);
    expect(empty.body.detail.code).to.equal('recover_window_empty');
    const old = await stack.client.post(`/v1/webhooks/${sub.webhookId}/recover`, { since: new Date(now - 31 * 86_400_000).toISOString() }, { token: sub.token });
    expect(old.body.detail.code).to.equal('recover_since_beyond_retention');
    const createdAt: string = sub.webhook.created_at;
    const before = await stack.client.post(`/v1/webhooks/${sub.webhookId}/recover`, { since: new Date(Date.parse(createdAt) - 1).toISOString() }, { token: sub.token });
    expect(before.status, before.text).to.equal(422);
    expect(before.body.detail).to.include({ code: 'recover_window_before_endpoint', endpoint_created_at: createdAt });
    const started = await stack.client.post(`/v1/webhooks/${sub.webhookId}/recover`, { since: createdAt }, { token: sub.token });
    expect(started.status, started.text).to.equal(202);
    expect((await stack.client.get(`/v1/webhooks/${sub.webhookId}/recoveries/${started.body.id}`, { token: other.token })).status).to.equal(404);
    expect((await stack.client.post(`/v1/webhooks/${sub.webhookId}/recover`, { since: new Date(now - 60_000).toISOString() }, { token: other.token })).status).to.equal(404);
  });
});
