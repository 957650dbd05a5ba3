import { expect } from 'chai';
import { sharedApi, sharedWorker, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { signAll, untilPaid, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { buildPayable, pay, payment } from '../support/payables';
import { backofficePayerPayment, operationWithTitles, payerPayment } from '../support/titles';
import { eventsAbout } from '../support/events';

/**
 * Issue #27's new events, each where its move is written, over the real lifecycle (Temporal and the
 * sandbox providers): every kind appears once per occurrence, numbered in its object's sequence,
 * and a repeated move (a replayed payment, a retried activity) records nothing more.
 */
describe('events of the lifecycle', function () {
  this.timeout(240_000);
  let client: ApiClient;
  let token: string;
  let backoffice: string;

  const toPaid = (operationId: string) => untilPaid(client, token, operationId);
  const recordPayerPayment = (titleId: string, body: Record<string, unknown>) => backofficePayerPayment(client, backoffice, titleId, body);
  const about = (objectId: string) => eventsAbout(client, token, objectId);
  const countOf = async (objectId: string, type: string) => Number((await testDb()('events').where({ object_id: objectId, event_type: type }).count({ n: '*' }))[0].n);

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token } = await buildOperationsIntegrator(client, { graceDays: 0 }));
    backoffice = await loginAs(client, await buildUser());
  });

  it('records title.overdue and payable.opened, title.partially_paid per payment (not on a replay), title.paid, payable.paid and operation.settled', async () => {
    const story = await operationWithTitles(client, token, { current: '10000.00', overdue: '5000.00' });
    await toPaid(story.operation.id);
    const overdue = await eventually(async () => {
      const events = await about(story.overdue!);
      expect(events).to.deep.equal([['title.overdue', 1]]);
      return (await client.get(`/v1/events?object_id=${story.overdue}`, { token })).body.items[0];
    });
    expect(overdue.data).to.include({ title_id: story.overdue, operation_id: story.operation.id, outstanding_balance: '5000.00' });
    const payableId = overdue.data.payable_id;
    expect(await about(payableId)).to.deep.equal([['payable.opened', 1]]);

    const partial = payerPayment({ paid_amount_brl: '2500.00' });
    expect((await recordPayerPayment(story.current, partial)).status).to.equal(201);
    const replay = await recordPayerPayment(story.current, partial);
    expect(replay.body.idempotent_replay).to.equal(true);
    expect((await recordPayerPayment(story.current, payerPayment({ paid_amount_brl: '7500.00' }))).status).to.equal(201);
    expect(await about(story.current)).to.deep.equal([['title.partially_paid', 1], ['title.paid', 2]]);
    const [paid] = (await client.get(`/v1/events?object_id=${story.current}&type=title.partially_paid`, { token })).body.items;
    expect(paid.data).to.include({ payment_amount_brl: '2500.00', outstanding_balance: '7500.00' });

    await untilStatus(client, token, story.operation.id, 'SETTLED');
    const operationEvents = await eventually(async () => {
      const events = await about(story.operation.id);
      expect(events.at(-1)).to.deep.equal(['operation.settled', events.length]);
      return events;
    });
    expect(operationEvents.map(([, sequence]) => sequence)).to.deep.equal(operationEvents.map((_, i) => i + 1));
    expect(operationEvents.map(([type]) => type)).to.include.members(['operation.created', 'operation.approved', 'operation.contract_signed', 'operation.paid']);

    expect((await pay(client, token, payableId, payment({ paid_amount_brl: '5000.00' }))).status).to.equal(201);
    expect(await about(payableId)).to.deep.equal([['payable.opened', 1], ['payable.paid', 2]]);
    expect(await countOf(story.operation.id, 'operation.settled')).to.equal(1);
  });

  it('records payable.written_off once; a second write-off is refused and records nothing', async () => {
    const story = await operationWithTitles(client, token, { current: '1000.00' });
    const payable = await buildPayable(client, token, story.operation.assignor_id);
    const first = await client.post(`/v1/assignor-payables/${payable.id}/write-off`, { reason: 'forgiven' }, { token });
    expect(first.status, first.text).to.equal(200);
    expect((await client.post(`/v1/assignor-payables/${payable.id}/write-off`, { reason: 'again' }, { token })).status).to.equal(409);
    expect(await about(payable.id)).to.deep.equal([['payable.opened', 1], ['payable.written_off', 2]]);
  });

  it('records operation.disbursement_failed for each refused PIX, then operation.paid after the retries', async () => {
    const created = await createDirect(client, token, directBody({ email: `pix-reject-x2+events${Date.now()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    await signAll(client, token, id);
    await untilStatus(client, token, id, 'DISBURSEMENT_FAILED');
    const [failed] = (await client.get(`/v1/events?object_id=${id}&type=operation.disbursement_failed`, { token })).body.items;
    expect(failed.data).to.include({ operation_id: id });
    expect(failed.data.reason).to.include('pix-reject');
    const retry = async () => expect((await client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: backoffice })).status).to.equal(200);
    await retry();
    await eventually(async () => expect(await countOf(id, 'operation.disbursement_failed')).to.equal(2));
    await untilStatus(client, token, id, 'DISBURSEMENT_FAILED');
    await retry();
    await untilStatus(client, token, id, 'PAID');
    await eventually(async () => expect((await about(id)).map(([type]) => type).slice(-2)).to.deep.equal(['operation.disbursement_failed', 'operation.paid']));
    expect(await countOf(id, 'operation.disbursement_failed')).to.equal(2);
  });

  it('records operation.contract_error, and at cancellation operation.cancelled with title.cancelled for each title', async () => {
    const created = await createDirect(client, token, directBody({ email: `esign-fail-create+events${Date.now()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_ERROR');
    const [error] = (await client.get(`/v1/events?object_id=${id}&type=operation.contract_error`, { token })).body.items;
    expect(error.data).to.include({ operation_id: id, error_code: 'esign_create_failed' });
    const cancel = await client.post(`/v1/operations/${id}/cancel`, { reason: 'no contract' }, { token });
    expect(cancel.status, cancel.text).to.equal(200);
    const titleId = created.body.titles[0].id;
    await eventually(async () => expect(await about(titleId)).to.deep.equal([['title.cancelled', 1]]));
    expect((await about(id)).map(([type]) => type).slice(-2)).to.deep.equal(['operation.contract_error', 'operation.cancelled']);
  });
});
