import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { collectOnPix } from '../support/pix-collection';
import { eventually } from '../support/webhooks';
import { CliCredentials, PlainRequest, plainReceiver, printedIds, runCli, RunningCli, startCli } from '../support/cli';

const PAID_KINDS = ['operation.created', 'operation.approved', 'operation.contract_signed', 'operation.paid'];

/**
 * The README's quickstart for webhooks on localhost, over the real api, worker and sandbox: the
 * package's CLI forwards an originator's events, signed, to a plain-HTTP receiver; `trigger` causes
 * them; a restart of `listen` forwards what happened meanwhile, and nothing twice.
 */
describe('the integrators\' CLI: listen, trigger, events tail', function () {
  this.timeout(300_000);
  let client: ApiClient;
  let token: string;
  let credentials: CliCredentials;
  let receiver: Awaited<ReturnType<typeof plainReceiver>>;
  let listener: RunningCli;
  let secret: string;
  const folder = mkdtempSync(path.join(tmpdir(), 'cli-listen-'));
  const stateFile = path.join(folder, 'listen.json');
  const listenArgs = () => ['listen', '--forward-to', receiver.url, '--state-file', stateFile, '--poll-ms', '200'];

  before(async () => {
    const api = await sharedApi();
    client = new ApiClient(api.url);
    await sharedWorker();
    const integrator = await buildOperationsIntegrator(client);
    await collectOnPix(integrator.originatorId);
    token = integrator.token;
    credentials = { apiUrl: api.url, clientId: integrator.credential.clientId, clientSecret: integrator.credential.secret };
    receiver = await plainReceiver();
  });

  after(async () => {
    await listener?.stop();
    await receiver?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const received = (operationId: string) => receiver.requests.filter((r) => r.body.data.operation_id === operationId);

  /** Every request verified as a receiver would, with the official Standard Webhooks library, and equal to the event as the api lists it. */
  async function verified(requests: PlainRequest[]): Promise<void> {
    const webhook = new Webhook(secret);
    for (const request of requests) {
      const payload = webhook.verify(request.rawBody, request.headers as Record<string, string>) as { event_id: string };
      const listed = await client.get(`/v1/events/${payload.event_id}`, { token });
      expect(listed.status).to.equal(200);
      expect(request.rawBody).to.equal(JSON.stringify(listed.body));
    }
  }

  it('forwards a PAID operation\'s events, signed, to a plain-HTTP local receiver, one printed line each with the local answer', async () => {
    listener = startCli(credentials, listenArgs());
    secret = (await listener.waitFor(/Webhook signing secret: (whsec_\S+)/))[1];
    const triggered = await runCli(credentials, ['trigger', 'operation.paid']);
    expect(triggered.code, triggered.stderr).to.equal(0);
    const [operationId] = printedIds(triggered.stdout).operation;
    await eventually(async () => expect(received(operationId).map((r) => r.body.event_type), listener.output()).to.include.members(PAID_KINDS), 60_000);
    await verified(received(operationId));
    for (const request of received(operationId)) {
      await listener.waitFor(new RegExp(`${request.body.event_type.replace('.', '\\.')}\\s+${request.body.event_id}\\s+--> 200`));
    }
  });

  it('after a restart, forwards what happened while it was down (a cancelled operation\'s events), with the same secret, and nothing twice', async () => {
    await listener.stop();
    const before = receiver.requests.length;
    const whileDown = await runCli(credentials, ['trigger', 'operation.cancelled']);
    expect(whileDown.code, whileDown.stderr).to.equal(0);
    const [operationId] = printedIds(whileDown.stdout).operation;
    listener = startCli(credentials, listenArgs());
    expect((await listener.waitFor(/Webhook signing secret: (whsec_\S+)/))[1]).to.equal(secret);
    await eventually(async () => expect(received(operationId).map((r) => r.body.event_type))
      .to.include.members(['operation.created', 'operation.approved', 'operation.cancelled', 'title.cancelled']), 30_000);
    await verified(received(operationId));
    const ids = receiver.requests.map((r) => r.body.event_id);
    expect(new Set(ids).size, 'no event forwarded twice').to.equal(ids.length);
    expect(receiver.requests.slice(before).every((r) => r.body.data.operation_id === operationId), 'only what happened while it was down').to.equal(true);
  });

  it('`trigger title.overdue` reaches the listener with title.overdue and payable.opened, a listener of payable.opened alone gets only it, and a later real-time event still follows', async () => {
    const payablesOnly = await plainReceiver();
    const filtered = startCli(credentials, ['listen', '--forward-to', payablesOnly.url, '--events', 'payable.opened', '--state-file', path.join(folder, 'payables.json'), '--poll-ms', '200']);
    await filtered.waitFor(/Webhook signing secret/);
    const triggered = await runCli(credentials, ['trigger', 'title.overdue']);
    expect(triggered.code, triggered.stderr).to.equal(0);
    const ids = printedIds(triggered.stdout);
    expect(ids).to.include.keys('operation', 'title', 'payable', 'test_clock');
    const [operationId] = ids.operation;
    await eventually(async () => {
      const kinds = receiver.requests.filter((r) => r.body.data.operation_id === operationId || r.body.data.payable_id === ids.payable[0]).map((r) => r.body.event_type);
      expect(kinds).to.include.members(['title.overdue', 'payable.opened']);
    }, 60_000);
    const payable = receiver.requests.find((r) => r.body.event_type === 'payable.opened' && r.body.data.payable_id === ids.payable[0])!;
    expect(payable.body.data.origin_title_id).to.equal(ids.title[0]);
    await eventually(async () => expect(payablesOnly.requests.map((r) => r.body.data.payable_id)).to.deep.equal(ids.payable), 30_000);
    expect(payablesOnly.requests.map((r) => r.body.event_type)).to.deep.equal(['payable.opened']);
    await filtered.stop();
    await payablesOnly.close();
    await verified(receiver.requests);

    // The clock's events occur weeks ahead of real time: one recorded now still reaches the listener.
    const later = await runCli(credentials, ['trigger', 'operation.created']);
    const [laterId] = printedIds(later.stdout).operation;
    await eventually(async () => expect(received(laterId).map((r) => r.body.event_type)).to.include('operation.created'), 30_000);
  });

  it('`events tail --operation` prints the operation\'s whole story: its own, its title\'s and its payable\'s events', async () => {
    const overdue = receiver.requests.find((r) => r.body.event_type === 'title.overdue')!;
    const tail = await runCli(credentials, ['events', 'tail', '--operation', String(overdue.body.data.operation_id), '--no-follow']);
    expect(tail.code, tail.stderr).to.equal(0);
    const kinds = tail.stdout.trim().split('\n').map((line) => line.split(/\s+/)[1]);
    expect(kinds).to.include.members([...PAID_KINDS, 'title.overdue', 'payable.opened']);
    expect(kinds.indexOf('operation.created')).to.be.below(kinds.indexOf('title.overdue'));
  });
});
