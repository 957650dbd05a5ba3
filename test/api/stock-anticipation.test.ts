import { expect } from 'chai';
import { Money } from '../../domain/money';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, startOperationsTest } from '../support/operations';
import { anticipationBody, requestAnticipation, simulateAnticipation, stockBody, stocked, stockItem } from '../support/stock';

describe('POST /v1/stock/simulate-anticipation and /v1/stock/request-anticipation', () => {
  let client: ApiClient;
  let token: string;
  before(async () => ({ client, token } = await startOperationsTest()));

  const twoItems = () => stocked(client, token, stockBody({ items: [stockItem(), stockItem({ net_future_value: '5000.00' })] }));

  it('simulates 100% of the items with the simulation shape and creates nothing', async () => {
    const items = await twoItems();
    const before = (await client.get('/v1/operations', { token })).body.total;
    const res = await simulateAnticipation(client, token, { stock_item_ids: items.map((i) => i.id), requested_advance_value: 15000 });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ id: 'simulation', status: 'SIMULATED', opr_net_future_value: '15000.00', opr_requested_net_future_value: '15000.00', assignor_id: items[0].assignor_id });
    expect(res.body.receivables.map((r: any) => [r.stock_item_id, r.requested_net_future_value])).to.deep.equal([[items[0].id, '10000.00'], [items[1].id, '5000.00']]);
    expect(res.body.receivables[0].present_value_discount).to.equal('250.00');
    expect((await client.get('/v1/operations', { token })).body.total).to.equal(before);
    expect((await client.get(`/v1/stock/${items[0].id}`, { token })).body.status).to.equal('IN_STOCK');
  });

  it('creates an operation with the stock-path shape, and the items become its titles, ANTICIPATED', async () => {
    const items = await twoItems();
    const res = await requestAnticipation(client, token, anticipationBody(items.map((i) => i.id), '15000.00'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ status: null, lifecycle_status: 'APPROVED_DIRECT', needs_backoffice_approval: false, has_partial_anticipations: false, disbursement_method: null });
    expect(res.body).to.have.property('disbursement_method', null);
    expect(res.body.created_at).to.be.a('string');
    expect(res.body.opr_net_future_value).to.equal('15000.00');
    expect(res.body.titles.map((t: any) => [t.stock_item_id, t.external_id, t.requested_net_future_value, t.is_partial]))
      .to.have.deep.members(items.map((i) => [i.id, i.external_id, i.net_future_value, false]));
    for (const item of items) {
      expect((await client.get(`/v1/stock/${item.id}`, { token })).body).to.include({ status: 'ANTICIPATED', operation_id: res.body.id });
    }
    expect((await client.get(`/v1/operations/${res.body.id}`, { token })).body.lifecycle_status).to.equal('APPROVED_DIRECT');
  });

  it('queues an anticipation above the auto-approval limit for a human, as the direct route does', async () => {
    const [item] = await stocked(client, token, stockBody({ items: [stockItem({ net_future_value: '60000.00' })] }));
    const res = await requestAnticipation(client, token, anticipationBody([item.id], '60000.00', { requested_net_future_value: undefined, requested_advance_value: '60000' }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ lifecycle_status: 'WAITING_APPROVAL', status: null, needs_backoffice_approval: true });
  });

  it('gives the assignor its first account from bank, and ignores bank afterwards', async () => {
    const [first, second] = await stocked(client, token, stockBody({ items: [stockItem(), stockItem()] }));
    const bank = { code: '341', agency: '0001', account: '12345-6', type: 'XX' };
    expect((await requestAnticipation(client, token, anticipationBody([first.id], '10000.00', { bank }))).status).to.equal(201);
    expect((await requestAnticipation(client, token, anticipationBody([second.id], '10000.00', { bank: { code: '001', agency: '1', account: '2' } }))).status).to.equal(201);
    const assignor = (await client.get(`/v1/assignors/${first.assignor_id}`, { token })).body;
    expect(assignor).to.include({ disbursement_method: 'bank_account' });
    expect(assignor.bank).to.deep.equal({ code: '341', agency: '0001', account: '12345-6', type: 'CC' });
  });

  it('refuses a body without bank, naming the key', async () => {
    const [item] = await stocked(client, token);
    const res = await requestAnticipation(client, token, anticipationBody([item.id], '10000.00', { bank: undefined }));
    expect(res.status).to.equal(422);
    expect(res.body.detail.errors).to.deep.equal([{ loc: ['body', 'bank'], msg: res.body.detail.errors[0].msg, type: 'missing' }]);
  });

  it('requires an Idempotency-Key on request-anticipation only', async () => {
    const [item] = await stocked(client, token);
    const res = await client.post('/v1/stock/request-anticipation', anticipationBody([item.id], '10000.00'), { token });
    expect(res.status).to.equal(422);
    expect(res.body.detail.code).to.equal('idempotency_key_required');
  });

  it('reports a missing requested value under the deprecated name, on both routes', async () => {
    const [item] = await stocked(client, token);
    for (const res of [
      await simulateAnticipation(client, token, { stock_item_ids: [item.id] }),
      await requestAnticipation(client, token, { stock_item_ids: [item.id], bank: {} }),
    ]) {
      expect(res.status).to.equal(422);
      expect(res.body.detail.errors).to.have.length(1);
      expect(res.body.detail.errors[0]).to.deep.include({ loc: ['body', 'requested_advance_value'], type: 'missing' });
    }
  });

  it('refuses both names of the requested value with different numbers: VOCABULARY_CONFLICT', async () => {
    const [item] = await stocked(client, token);
    const res = await simulateAnticipation(client, token, { stock_item_ids: [item.id], requested_net_future_value: '10000.00', requested_advance_value: '9000.00' });
    expect(res.status).to.equal(422);
    expect(res.body.detail.fields).to.deep.equal([{
      public_field: 'requested_net_future_value', public_value: '10000.00', deprecated_field: 'requested_advance_value', deprecated_value: '9000.00', loc: ['body'],
    }]);
  });

  it('refuses items of another tenant as not found, and anticipates nothing when a credit limit refuses', async () => {
    const [item] = await stocked(client, token);
    const { token: stranger } = await buildOperationsIntegrator(client);
    const foreign = await requestAnticipation(client, stranger, anticipationBody([item.id], '10000.00'));
    expect(foreign.status).to.equal(422);
    expect(foreign.body).to.deep.equal({ detail: 'some_stock_items_not_found' });

    const { token: capped } = await buildOperationsIntegrator(client, { maxOperationValueBrl: Money.of('5000.00') });
    const [own] = await stocked(client, capped);
    const limited = await requestAnticipation(client, capped, anticipationBody([own.id], '10000.00'));
    expect(limited.status).to.equal(403);
    expect(limited.body.detail.code).to.equal('LIMIT_MAX_OPERATION_VALUE');
    expect((await client.get(`/v1/stock/${own.id}`, { token: capped })).body).to.include({ status: 'IN_STOCK', operation_id: null });
  });
});
