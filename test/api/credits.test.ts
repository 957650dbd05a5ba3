import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { sharedApi } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator } from '../support/factories';
import { buildAssignor, buildPayable, readPayable } from '../support/payables';

describe('discount credits', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildIntegrator(client));
  });

  const grant = (body: Record<string, unknown>) => client.post('/v1/discount-credits', { reason: 'Commercial discount', ...body }, { token });

  it('settles the assignor\'s open payables oldest first and is listed with what it settled', async () => {
    const assignor = await buildAssignor(client, token);
    const older = await buildPayable(client, token, assignor.id, { amount_brl: '300.00' });
    const newer = await buildPayable(client, token, assignor.id, { amount_brl: '500.00' });
    const res = await grant({ assignor_id: assignor.id, amount_brl: '450.00' });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ amount_brl: '450.00', idempotent_replay: false, external_id: null });
    expect(res.body.applied_to).to.deep.equal([
      { payable_id: older.id, amount_brl: '300.00', remaining: '0.00' },
      { payable_id: newer.id, amount_brl: '150.00', remaining: '350.00' },
    ]);
    expect(await readPayable(client, token, older.id)).to.include({ status: 'PAID', remaining: '0.00' });
    const newerRead = await readPayable(client, token, newer.id);
    expect(newerRead).to.include({ status: 'PARTIALLY_PAID', remaining: '350.00' });
    expect(newerRead.payments[0]).to.include({ source: 'DISCOUNT_CREDIT', discount_credit_id: res.body.id, paid_amount_brl: '150.00' });
    const list = await client.get(`/v1/discount-credits?assignor_id=${assignor.id}`, { token });
    expect(list.body).to.include({ total: 1 });
    const { idempotent_replay: _replay, ...record } = res.body;
    expect(list.body.items).to.deep.equal([record]);
  });

  it('replays a credit by external_id at the originator grain without crediting twice; another body is 409', async () => {
    const assignor = await buildAssignor(client, token);
    const payable = await buildPayable(client, token, assignor.id, { amount_brl: '1000.00' });
    const body = { assignor_id: assignor.id, amount_brl: '100.00', external_id: `credit-${randomUUID()}` };
    const first = await grant(body);
    const retry = await grant(body);
    expect(retry.status).to.equal(201);
    expect(retry.body).to.deep.equal({ ...first.body, idempotent_replay: true });
    expect(await readPayable(client, token, payable.id)).to.include({ remaining: '900.00' });
    const other = await grant({ ...body, amount_brl: '90.00' });
    expect(other.status).to.equal(409);
    expect(other.body.detail).to.include({ code: 'external_id_reused_with_different_body' });
    expect(other.body.detail.fields).to.deep.equal(['amount_brl']);
  });

  it('refuses a credit above the open debt, so no balance is left to change later payables unseen', async () => {
    const assignor = await buildAssignor(client, token);
    await buildPayable(client, token, assignor.id, { amount_brl: '80.00' });
    const res = await grant({ assignor_id: assignor.id, amount_brl: '80.01' });
    expect(res.status).to.equal(422);
    expect(res.body.detail).to.include({ code: 'discount_credit_exceeds_open_debt', open_debt_brl: '80.00', amount_brl: '80.01' });
  });
});
