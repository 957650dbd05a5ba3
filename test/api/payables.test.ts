import { expect } from 'chai';
import { sharedApi } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator } from '../support/factories';
import { newIdempotencyKey } from '../support/idempotency';
import { expectInvisibleToOtherTenant } from '../support/tenancy';
import { buildAssignor, buildPayable, pay, payment, readPayable } from '../support/payables';

describe('assignor payables', () => {
  let client: ApiClient;
  let token: string;
  let assignorId: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildIntegrator(client));
    ({ id: assignorId } = await buildAssignor(client, token));
  });

  it('opens a payable by hand and finds it by id and in the list filtered by assignor and status', async () => {
    const payable = await buildPayable(client, token, assignorId, { amount_brl: 1250.5, due_date: '2026-12-01' });
    expect(payable).to.include({ origin: 'MANUAL', origin_title_id: null, reason: 'Chargeback of a duplicate', amount_brl: '1250.50', paid_amount_brl: '0.00', remaining: '1250.50', status: 'OPEN', due_date: '2026-12-01' });
    expect(await readPayable(client, token, payable.id)).to.deep.equal({ ...payable, payments: [] });
    const list = await client.get(`/v1/assignor-payables?assignor_id=${assignorId}&status=OPEN&limit=200`, { token });
    expect(list.body.items.map((p: { id: string }) => p.id)).to.include(payable.id);
    const paid = await client.get(`/v1/assignor-payables?assignor_id=${assignorId}&status=PAID`, { token });
    expect(paid.body.items.map((p: { id: string }) => p.id)).to.not.include(payable.id);
  });

  it('refuses a payable with neither origin title nor reason, and one for an assignor of another originator', async () => {
    const noReason = await client.post('/v1/assignor-payables', { assignor_id: assignorId, amount_brl: '10.00', due_date: '2026-12-01' }, { token });
    expect(noReason.status).to.equal(422);
    expect(noReason.body.detail.errors[0]).to.include({ type: 'missing' }).and.to.have.deep.property('loc', ['body', 'reason']);
    const stranger = await buildIntegrator(client);
    const foreign = await client.post('/v1/assignor-payables', { assignor_id: assignorId, reason: 'x', amount_brl: '10.00', due_date: '2026-12-01' }, { token: stranger.token });
    expect(foreign.status).to.equal(422);
    expect(foreign.body.detail).to.include({ code: 'assignor_not_found' });
    const zero = await client.post('/v1/assignor-payables', { assignor_id: assignorId, reason: 'x', amount_brl: '0', due_date: '2026-12-01' }, { token });
    expect(zero.status).to.equal(422);
    expect(zero.body.detail.errors[0]).to.include({ type: 'greater_than' });
  });

  it('is paid in two payments with external_ids; a retry replays the original with idempotent_replay true and debits nothing', async () => {
    const payable = await buildPayable(client, token, assignorId, { amount_brl: '1000.00' });
    const first = payment({ paid_amount_brl: '300.00' });
    const a = await pay(client, token, payable.id, first);
    expect(a.status, a.text).to.equal(201);
    expect(a.body).to.include({ idempotent_replay: false, remaining: '700.00', paid_amount_brl: '300.00', source: 'ASSIGNOR_PIX_DIRECT', external_id: first.external_id });
    const b = await pay(client, token, payable.id, payment({ paid_amount_brl: '200.00' }));
    expect(b.body).to.include({ idempotent_replay: false, remaining: '500.00' });

    const retry = await pay(client, token, payable.id, { ...first });
    expect(retry.status).to.equal(201);
    expect(retry.body).to.deep.equal({ ...a.body, idempotent_replay: true });
    const read = await readPayable(client, token, payable.id);
    expect(read).to.include({ status: 'PARTIALLY_PAID', paid_amount_brl: '500.00', remaining: '500.00' });
    expect(read.payments.map((p: { id: string }) => p.id)).to.deep.equal([a.body.id, b.body.id]);
  });

  it('refuses an external_id reused with another body, naming the diverging fields', async () => {
    const payable = await buildPayable(client, token, assignorId);
    const first = payment();
    await pay(client, token, payable.id, first);
    const res = await pay(client, token, payable.id, { ...first, paid_amount_brl: 100, source: 'ASSIGNOR_BANK_TRANSFER' });
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.include({ code: 'external_id_reused_with_different_body' });
    expect(res.body.detail.fields).to.deep.equal(['paid_amount_brl', 'source']);
  });

  it('refuses an overpayment with 422 payment_exceeds_remaining and changes nothing', async () => {
    const payable = await buildPayable(client, token, assignorId, { amount_brl: '100.00' });
    const res = await pay(client, token, payable.id, payment({ paid_amount_brl: '100.01' }));
    expect(res.status).to.equal(422);
    expect(res.body.detail).to.include({ code: 'payment_exceeds_remaining', remaining: '100.00', paid_amount_brl: '100.01' });
    expect(await readPayable(client, token, payable.id)).to.include({ remaining: '100.00', status: 'OPEN' });
  });

  it('makes two payments of two equal posts without external_id', async () => {
    const payable = await buildPayable(client, token, assignorId);
    const body = { source: 'ASSIGNOR_PIX_DIRECT', paid_amount_brl: '10.00' };
    expect((await pay(client, token, payable.id, body)).body).to.include({ idempotent_replay: false, external_id: null, remaining: '990.00' });
    expect((await pay(client, token, payable.id, body)).body).to.include({ idempotent_replay: false, remaining: '980.00' });
  });

  it('once paid in full, refuses a new payment with payable_already_settled while a retried external_id still replays', async () => {
    const payable = await buildPayable(client, token, assignorId, { amount_brl: '50.00' });
    const last = payment({ paid_amount_brl: '50.00' });
    const settled = await pay(client, token, payable.id, last);
    expect(settled.body).to.include({ remaining: '0.00' });
    expect(await readPayable(client, token, payable.id)).to.include({ status: 'PAID', remaining: '0.00' });
    const more = await pay(client, token, payable.id, payment({ paid_amount_brl: '1.00' }));
    expect(more.status).to.equal(409);
    expect(more.body).to.deep.equal({ detail: 'payable_already_settled' });
    expect((await pay(client, token, payable.id, last)).body).to.deep.equal({ ...settled.body, idempotent_replay: true });
  });

  it('after a write-off answers a retried external_id with payable_already_settled, while the Idempotency-Key replays first', async () => {
    const payable = await buildPayable(client, token, assignorId, { amount_brl: '400.00' });
    const key = newIdempotencyKey();
    const first = payment({ paid_amount_brl: '150.00' });
    const paid = await pay(client, token, payable.id, first, { 'Idempotency-Key': key });
    expect(paid.status).to.equal(201);

    const writeOff = await client.post(`/v1/assignor-payables/${payable.id}/write-off`, { reason: 'Assignor insolvent' }, { token });
    expect(writeOff.status, writeOff.text).to.equal(200);
    expect(writeOff.body).to.include({ status: 'WRITTEN_OFF', remaining: '0.00', written_off_amount_brl: '250.00', write_off_reason: 'Assignor insolvent' });

    const retried = await pay(client, token, payable.id, first);
    expect(retried.status).to.equal(409);
    expect(retried.body).to.deep.equal({ detail: 'payable_already_settled' });
    const keyed = await pay(client, token, payable.id, first, { 'Idempotency-Key': key });
    expect(keyed.status).to.equal(201);
    expect(keyed.headers.get('idempotency-replayed')).to.equal('true');
    expect(keyed.body).to.deep.equal(paid.body);
    const again = await client.post(`/v1/assignor-payables/${payable.id}/write-off`, { reason: 'twice' }, { token });
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.equal({ detail: 'payable_already_settled' });
  });

  it('answers 404 payable_not_found for an unknown payable and for another originator\'s', async () => {
    const unknown = await pay(client, token, '01930000-0000-7000-8000-000000000000', payment());
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ detail: 'payable_not_found' });
    const payable = await buildPayable(client, token, assignorId);
    await expectInvisibleToOtherTenant(client, { id: payable.id, itemPath: (id) => `/v1/assignor-payables/${id}`, listPath: '/v1/assignor-payables', notFoundCode: 'payable_not_found' });
  });
});
