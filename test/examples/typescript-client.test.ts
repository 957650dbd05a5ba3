import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { signatureHeaders } from '../../domain/webhook-signature';
import { generateSchema, SCHEMA_FILE } from '../../examples/typescript-client/generate';
import { runWholeFlow } from '../../examples/typescript-client/whole-flow';
import { runTestClockFlow } from '../../examples/typescript-client/test-clock-flow';
import { businessDate } from '../../domain/pricing';
import { startWebhookReceiver, WebhookEvent } from '../../examples/typescript-client/webhook-receiver';
import { anotherApi, sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { cnpj } from '../support/documents';
import { RECEIVER_HOST, testCa } from '../support/https-receiver';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { eventually, webhookWorkerEnv } from '../support/webhooks';

describe('examples/typescript-client', () => {
  let client: ApiClient;
  let baseUrl: string;
  before(async () => {
    baseUrl = (await sharedApi()).url;
    client = new ApiClient(baseUrl);
    await sharedWorker();
  });

  it('holds the client generated from the live document (regenerate: npm run example:client)', async () => {
    const live = (await client.get('/v1/openapi.json')).body;
    expect(readFileSync(SCHEMA_FILE, 'utf8') === await generateSchema(live), 'schema.d.ts is stale: npm run example:client').to.equal(true);
  });

  it('creates a test clock, prices, creates and signs an operation on it, and advances it until its title is overdue with a payable, through the generated client only', async () => {
    const { credential } = await buildOperationsIntegrator(client, { graceDays: 3 });
    const lines: string[] = [];
    const result = await runTestClockFlow({
      baseUrl, clientId: credential.clientId, clientSecret: credential.secret, assignorCnpj: cnpj(), payerCnpj: cnpj(), log: (line) => lines.push(line), timeoutMs: 120_000,
    });
    const start = Date.parse(result.operation.created_at!);
    expect(result.operation.test_clock_id).to.equal(result.clock.id);
    expect(start - Date.now()).to.be.greaterThan(29 * 86_400_000);
    expect(result.businessDate).to.equal(businessDate(new Date(start)));
    expect(result.title).to.include({ status: 'OVERDUE', grace_days: 3 });
    expect(Date.parse(result.clock.frozen_time) - Date.parse(result.title.overdue_at!)).to.equal(86_400_000);
    expect(result.payables.map((p) => [p.origin, p.origin_title_id, p.status, p.amount_brl])).to.deep.equal([['TITLE_OVERDUE', result.title.id, 'OPEN', '10000.00']]);
    expect(lines.some((line) => line.startsWith(`payable ${result.payables[0].id}: OPEN`))).to.equal(true);
  });

  it('runs a direct operation from token to SETTLED through the generated client only', async () => {
    const { credential } = await buildOperationsIntegrator(client);
    const lines: string[] = [];
    const result = await runWholeFlow({
      baseUrl, clientId: credential.clientId, clientSecret: credential.secret, assignorCnpj: cnpj(), payerCnpj: cnpj(), log: (line) => lines.push(line),
    });
    expect(result.status).to.equal('SETTLED');
    expect(lines.some((line) => line.startsWith('PAID: '))).to.equal(true);
    expect(result.events.map((event) => event.sequence)).to.deep.equal(result.events.map((_, i) => i + 1));
    expect(result.events[0].type).to.equal('operation.created');
    expect(result.events.at(-1)!.type).to.equal('operation.settled');
    const read = await client.get(`/v1/operations/${result.operationId}`, { token: (await buildOperationsIntegrator(client)).token });
    expect(read.status, 'another originator does not see it').to.equal(404);
  });

  it('verifies our webhook deliveries with the official standardwebhooks library, and refuses a forged one', async () => {
    // An api that, like the shared worker, may deliver to the test receiver on loopback.
    const webhooksApi = new ApiClient((await anotherApi(await webhookWorkerEnv())).url);
    const { token } = await buildOperationsIntegrator(webhooksApi);
    const { caPem, certPem, keyPem } = await testCa();
    const events: WebhookEvent[] = [];
    // The secret exists once the URL is registered: the receiver reads it from where it is kept.
    let secret = '';
    const receiver = await startWebhookReceiver({ secret: () => secret, cert: certPem, key: keyPem, onEvent: (event) => events.push(event) });
    const port = receiver.port;
    try {
      const registered = await webhooksApi.post('/v1/webhooks', { url: `https://${RECEIVER_HOST}:${port}/hooks`, events: ['operation.created', 'operation.approved'] }, { token });
      expect(registered.status, registered.text).to.equal(201);
      secret = registered.body.hmac_secret;
      const created = await createDirect(webhooksApi, token, directBody());
      expect(created.status, created.text).to.equal(201);
      await eventually(async () => {
        const mine = events.filter((event) => event.data.operation_id === created.body.id).map((event) => event.event_type);
        expect(mine).to.have.members(['operation.created', 'operation.approved']);
      }, 20_000);

      const body = JSON.stringify({ event_type: 'operation.paid', event_id: '01930000-0000-7000-8000-000000000001', occurred_at: new Date().toISOString(), data: {} });
      const forged = signatureHeaders({ secrets: ['whsec_' + Buffer.alloc(32, 7).toString('base64')], messageId: 'msg_forged', timestamp: Math.floor(Date.now() / 1000), body });
      const answer = await new Promise<number>((resolve, reject) => {
        const request = https.request(`https://127.0.0.1:${port}/hooks`, { method: 'POST', ca: caPem, servername: RECEIVER_HOST, headers: { ...forged, 'Content-Type': 'application/json' } }, (res) => { res.resume(); resolve(res.statusCode!); });
        request.on('error', reject);
        request.end(body);
      });
      expect(answer).to.equal(401);
      expect(events.map((event) => event.event_type)).not.to.include('operation.paid');
    } finally {
      await receiver.close();
    }
  });
});
