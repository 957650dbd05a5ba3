import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { Webhook } from 'standardwebhooks';
import { ensureDevCa, withDevCa } from '../../scripts/lib/dev-ca.mjs';
import { anotherApi, sharedWorker, stopSharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { startReceiver, testCa, TestReceiver } from '../support/https-receiver';
import { eventually } from '../support/webhooks';
import { printedIds, runCli } from '../support/cli';

/**
 * Webhooks on localhost over real HTTPS, as `npm run dev` sets them up: its CA, made once, is
 * trusted by the worker, and a receiver on https://127.0.0.1 serving the certificate it signed
 * gets a PAID operation's deliveries; one serving a certificate of its own is refused, and the
 * delivery record says why.
 */
describe('local HTTPS webhooks with the dev CA', function () {
  this.timeout(180_000);
  const folder = mkdtempSync(path.join(tmpdir(), 'dev-ca-'));
  const receivers: TestReceiver[] = [];
  let client: ApiClient;
  let apiUrl: string;
  let integrator: Awaited<ReturnType<typeof buildOperationsIntegrator>>;

  before(async () => {
    const devCa = await ensureDevCa(folder);
    // The worker as `npm run dev` starts it: the dev CA beside the CA it already trusts.
    await stopSharedWorker();
    await sharedWorker({ WEBHOOKS_EXTRA_CA_PEM: withDevCa((await testCa()).caPem, devCa.caPem) });
    apiUrl = (await anotherApi({ WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' })).url;
    client = new ApiClient(apiUrl);
    integrator = await buildOperationsIntegrator(client);
  });

  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    // Later files get a worker of the usual settings.
    await stopSharedWorker();
    rmSync(folder, { recursive: true, force: true });
  });

  async function subscribe(certificate: { certPem: string; keyPem: string }) {
    const receiver = await startReceiver(() => 200, certificate);
    receivers.push(receiver);
    const url = receiver.url().replace(/\/\/[^:]+:/, '//127.0.0.1:');
    const res = await client.post('/v1/webhooks', { url, events: ['operation.created', 'operation.approved', 'operation.contract_signed', 'operation.paid'] }, { token: integrator.token });
    expect(res.status, res.text).to.equal(201);
    return { receiver, webhookId: res.body.id as string, secret: res.body.hmac_secret as string };
  }

  it('makes its CA once, and keeps it', async () => {
    const first = await ensureDevCa(folder);
    expect(first.caPem).to.match(/^-----BEGIN CERTIFICATE-----/);
    expect((await ensureDevCa(folder)).caPem).to.equal(first.caPem);
    expect(readFileSync(first.key, 'utf8')).to.match(/PRIVATE KEY/);
  });

  it('delivers a PAID operation\'s events to https://127.0.0.1 serving the dev certificate, verifiable with Standard Webhooks', async () => {
    const devCa = await ensureDevCa(folder);
    const trusted = await subscribe({ certPem: readFileSync(devCa.cert, 'utf8'), keyPem: readFileSync(devCa.key, 'utf8') });
    const triggered = await runCli({ apiUrl, clientId: integrator.credential.clientId, clientSecret: integrator.credential.secret }, ['trigger', 'operation.paid']);
    expect(triggered.code, triggered.stderr).to.equal(0);
    const [operationId] = printedIds(triggered.stdout).operation;
    const webhook = new Webhook(trusted.secret);
    await eventually(async () => {
      const kinds = trusted.receiver.requests.filter((r) => r.body.data.operation_id === operationId).map((r) => r.body.event_type);
      expect(kinds).to.include.members(['operation.created', 'operation.approved', 'operation.contract_signed', 'operation.paid']);
    }, 60_000);
    for (const request of trusted.receiver.requests) webhook.verify(request.rawBody.toString('utf8'), request.headers as Record<string, string>);
  });

  it('records why a receiver\'s own self-signed certificate was refused', async () => {
    const own = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec', algorithm: 'sha256', extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const refused = await subscribe({ certPem: own.cert, keyPem: own.private });
    await runCli({ apiUrl, clientId: integrator.credential.clientId, clientSecret: integrator.credential.secret }, ['trigger', 'operation.created']);
    const deliveries = await eventually(async () => {
      const res = await client.get(`/v1/webhooks/${refused.webhookId}/deliveries`, { token: integrator.token });
      expect(res.body.items).to.not.have.length(0);
      return res.body.items as { error: string | null; response_status_code: number | null }[];
    }, 30_000);
    expect(deliveries[0]).to.include({ error: 'self_signed_certificate', response_status_code: null });
    expect(refused.receiver.requests).to.have.length(0);
  });
});
