import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { createLogger } from '../../platform/logger';
import { connectTemporal, TemporalHandle } from '../../api/temporal/client';
import { createWebhookActivities } from '../../activities/webhooks';
import { recordEvent } from '../../db/repositories/events';
import { WebhookSubscriptionRepository } from '../../db/repositories/webhooks';
import { WebhookDeliveryRepository } from '../../db/repositories/webhooks-deliveries';
import { newWebhookSecret } from '../../domain/webhook-signature';
import { deliveryStart, type webhookDelivery } from '../../workflows/webhook-delivery';
import { sharedApi, sharedWorker, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator, buildOriginator } from '../support/factories';
import { Answer, RECEIVER_HOST, startReceiver, testCa, TestReceiver } from '../support/https-receiver';
import { eventually, fixedResolver } from '../support/webhooks';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { generate } from 'selfsigned';

/**
 * One attempt, straight through the activity with the guard configured as in production: the
 * address judged is the one the socket connects to. Each subscription is created after its event,
 * so the shared worker's dispatcher (which only pairs an event with older subscriptions) stays out.
 */
describe('webhook delivery attempt', () => {
  const receivers: TestReceiver[] = [];
  after(() => Promise.all(receivers.map((r) => r.close())));

  async function receiver(answer?: (n: number) => Answer): Promise<TestReceiver> {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  }

  async function activities(options: { allowPrivateHosts: boolean; trustTestCa?: boolean; hosts?: Record<string, string[]> }) {
    const config = testConfig({
      WEBHOOKS_ALLOW_PRIVATE_HOSTS: String(options.allowPrivateHosts),
      WEBHOOKS_EXTRA_CA_PEM: options.trustTestCa === false ? '' : (await testCa()).caPem,
    });
    const resolveHost = fixedResolver(options.hosts ?? { [RECEIVER_HOST]: ['127.0.0.1'] });
    return createWebhookActivities({ db: testDb(), config, logger: createLogger('error', 'test'), resolveHost });
  }

  /** An event, then a subscription to it at `url`. */
  async function pair(url: string, originatorId?: string) {
    const owner = originatorId ?? (await buildOriginator());
    const eventId = uuidv7();
    await recordEvent(testDb(), { eventId, originatorId: owner, eventType: 'operation.paid', occurredAt: new Date(), data: { originator_id: owner, operation_id: uuidv7() } });
    const subscription = await new WebhookSubscriptionRepository(testDb(), owner).create({
      id: uuidv7(), url, eventTypes: ['operation.paid'], description: null, sealedSecret: new CipherRing(testConfig().payloadKeys).sealText(newWebhookSecret()),
    });
    const records = async () => (await new WebhookDeliveryRepository(testDb(), owner).list(subscription.id, { limit: 50, offset: 0 })).items;
    return { eventId, subscriptionId: subscription.id, originatorId: owner, records };
  }

  const attempt = (p: { eventId: string; subscriptionId: string; originatorId: string }, act: Awaited<ReturnType<typeof activities>>) =>
    act.attemptWebhookDelivery({ eventId: p.eventId, subscriptionId: p.subscriptionId, originatorId: p.originatorId, timeoutMs: 5_000, nextRetryInMs: null });

  it('refuses a host that now resolves to loopback (DNS rebinding) without connecting', async () => {
    const target = await receiver();
    const p = await pair(target.url());
    expect(await attempt(p, await activities({ allowPrivateHosts: false }))).to.equal('failed');
    expect(target.requests).to.have.length(0);
    const [record] = await p.records();
    expect(record).to.include({ error: 'ip_loopback', responseStatusCode: null, deliveredSuccessfully: false, nextRetryAt: null });
  });

  it('refuses an IP literal in a refused range, which no lookup would see', async () => {
    const target = await receiver();
    const p = await pair(target.url().replace(RECEIVER_HOST, '127.0.0.1'));
    expect(await attempt(p, await activities({ allowPrivateHosts: false }))).to.equal('failed');
    expect(target.requests).to.have.length(0);
    expect((await p.records())[0].error).to.equal('ip_loopback');
  });

  it('reaches the same receivers when private hosts are allowed (dev and test only)', async () => {
    const target = await receiver();
    const act = await activities({ allowPrivateHosts: true });
    expect(await attempt(await pair(target.url()), act)).to.equal('delivered');
    expect(await attempt(await pair(target.url().replace(RECEIVER_HOST, '127.0.0.1')), act)).to.equal('delivered');
    expect(target.requests).to.have.length(2);
  });

  it('keeps refusing link-local addresses even where private hosts are allowed', async () => {
    const p = await pair('https://metadata.test/latest');
    expect(await attempt(p, await activities({ allowPrivateHosts: true, hosts: { 'metadata.test': ['169.254.169.254'] } }))).to.equal('failed');
    expect((await p.records())[0].error).to.equal('ip_link_local');
  });

  it('does not follow a redirect: the 3xx is the answer, and a failed one', async () => {
    const elsewhere = await receiver();
    const target = await receiver(() => ({ status: 302, headers: { Location: elsewhere.url() } }));
    const p = await pair(target.url());
    expect(await attempt(p, await activities({ allowPrivateHosts: true }))).to.equal('failed');
    expect(elsewhere.requests).to.have.length(0);
    expect((await p.records())[0]).to.include({ responseStatusCode: 302, deliveredSuccessfully: false, error: null });
  });

  it('refuses a certificate from a CA that configuration does not trust, and says so', async () => {
    const target = await receiver();
    const p = await pair(target.url());
    expect(await attempt(p, await activities({ allowPrivateHosts: true, trustTestCa: false }))).to.equal('failed');
    expect((await p.records())[0].error).to.equal('unknown_certificate_authority');
  });

  it('names a self-signed certificate and a certificate for another host as the reasons of a failed handshake', async () => {
    const own = await generate([{ name: 'commonName', value: RECEIVER_HOST }], {
      keyType: 'ec', algorithm: 'sha256', extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: RECEIVER_HOST }] }],
    });
    const selfSigned = await startReceiver(() => 200, { certPem: own.cert, keyPem: own.private });
    receivers.push(selfSigned);
    const p = await pair(selfSigned.url());
    expect(await attempt(p, await activities({ allowPrivateHosts: true }))).to.equal('failed');
    expect((await p.records())[0].error).to.equal('self_signed_certificate');

    const target = await receiver();
    const elsewhere = await pair(target.url().replace(RECEIVER_HOST, 'elsewhere.test'));
    expect(await attempt(elsewhere, await activities({ allowPrivateHosts: true, hosts: { 'elsewhere.test': ['127.0.0.1'] } }))).to.equal('failed');
    expect((await elsewhere.records())[0].error).to.equal('hostname_mismatch');
    expect(target.requests).to.have.length(0);
  });

  describe('the workflow', () => {
    let temporal: TemporalHandle;
    before(async () => {
      await sharedWorker();
      temporal = connectTemporal(testConfig().temporal, testConfig().payloadKeys);
    });
    after(() => temporal.connection.close());

    it('sends a pending retry at once when the retry route asks, instead of waiting its turn', async () => {
      const client = new ApiClient((await sharedApi()).url);
      const integrator = await buildIntegrator(client);
      const target = await receiver((n) => (n === 1 ? 500 : 200));
      const p = await pair(target.url(), integrator.originatorId);
      const input = { eventId: p.eventId, subscriptionId: p.subscriptionId, originatorId: p.originatorId, retryScheduleMs: [0, 600_000], timeoutMs: 10_000 };
      const handle = await temporal.client.workflow.start<typeof webhookDelivery>('webhookDelivery', { ...deliveryStart(input), taskQueue: temporal.taskQueue });
      await target.waitForRequests(1);
      const [failed] = await eventually(async () => {
        const records = await p.records();
        expect(records).to.have.length(1);
        return records;
      });
      expect(failed.nextRetryAt!.getTime() - failed.createdAt.getTime()).to.be.closeTo(600_000, 1_000);

      const res = await client.post(`/v1/webhooks/${p.subscriptionId}/deliveries/${failed.id}/retry`, undefined, { token: integrator.token });
      expect(res.status).to.equal(202);
      expect(await handle.result()).to.deep.equal({ attempts: 2, outcome: 'delivered' });
      expect(target.requests).to.have.length(2);
    });
  });
});
