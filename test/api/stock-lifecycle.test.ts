import { expect } from 'chai';
import { cnpj, nfeOf } from '../support/documents';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody, startOperationsTest } from '../support/operations';
import { patientApi, testDb } from '../support/stack';
import { untilLockWait } from '../support/idempotency';
import { eventually } from '../support/webhooks';
import { receivable } from '../support/simulate';
import { anticipationBody, requestAnticipation, simulateAnticipation, stockBody, stocked, stockItem } from '../support/stock';

describe('stock items through the life of their operations', () => {
  let client: ApiClient;
  let token: string;
  before(async () => ({ client, token } = await startOperationsTest()));

  const itemOf = async (id: string) => (await client.get(`/v1/stock/${id}`, { token })).body;
  const untilBackInStock = (id: string) => eventually(async () => expect(await itemOf(id)).to.include({ status: 'IN_STOCK', operation_id: null }), 20_000);

  it('refuses the remainder of a partial direct anticipation until it is PATCHed pre_authorized, then anticipates it', async () => {
    const { token: own } = await buildOperationsIntegrator(client);
    const assignor = cnpj();
    const nfe = nfeOf(assignor);
    const source = receivable({ requested_net_future_value: '6000.00', ...nfe, nfe_total_value: '10000.00' });
    const direct = await createDirect(client, own, directBody({ cnpj: assignor, receivables: [source] }));
    expect(direct.status, direct.text).to.equal(201);
    const list = await client.get('/v1/stock?status=IN_STOCK', { token: own });
    const remainder = list.body.items.find((i: any) => i.external_id === `${source.external_id}_REMAINDER_${direct.body.id.slice(0, 8)}`);
    expect(remainder).to.include({
      pre_authorized: false, net_future_value: '4000.00', backing_type: 'NFE', ...nfe, nfe_total_value: '10000.00', source_operation_id: direct.body.id, payer_document: source.payer_document,
    });

    const body = anticipationBody([remainder.id], '4000.00');
    const refused = `stock_item_${remainder.id}_not_pre_authorized`;
    expect((await simulateAnticipation(client, own, body)).body).to.deep.equal({ detail: refused });
    const request = await requestAnticipation(client, own, body);
    expect(request.status).to.equal(409);
    expect(request.body).to.deep.equal({ detail: refused });

    expect((await client.patch(`/v1/stock/${remainder.id}`, { pre_authorized: true }, { token: own })).status).to.equal(200);
    const anticipated = await requestAnticipation(client, own, body);
    expect(anticipated.status, anticipated.text).to.equal(201);
    expect(anticipated.body.titles[0]).to.include({ stock_item_id: remainder.id, requested_net_future_value: '4000.00', is_partial: false });
  });

  it('lets only one of two concurrent requests anticipate an item: both wait on its row lock', async () => {
    const [item] = await stocked(client, token);
    const body = anticipationBody([item.id], '10000.00');
    // Holding the row makes both requests reach the lock before either can take it.
    const blocker = await testDb().transaction();
    await blocker('stock_items').where({ id: item.id }).forUpdate();
    // Both wait on the row for longer than the default budget lets a request wait on a lock.
    const patient = new ApiClient((await patientApi()).url);
    const pending = Promise.all([requestAnticipation(patient, token, body), requestAnticipation(patient, token, body)]);
    await untilLockWait('select "stock_items".*');
    await blocker.commit();
    const answers = await pending;
    expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 409]);
    const winner = answers.find((a) => a.status === 201)!;
    expect(answers.find((a) => a.status === 409)!.body).to.deep.equal({ detail: `stock_item_${item.id}_not_available` });
    expect(await itemOf(item.id)).to.include({ status: 'ANTICIPATED', operation_id: winner.body.id });
  });

  it('neither changes nor cancels an ANTICIPATED item', async () => {
    const [item] = await stocked(client, token);
    expect((await requestAnticipation(client, token, anticipationBody([item.id], '10000.00'))).status).to.equal(201);
    expect((await client.patch(`/v1/stock/${item.id}`, { pre_authorized: false }, { token })).body).to.deep.equal({ detail: 'stock_item_not_in_stock' });
    expect((await client.post(`/v1/stock/${item.id}/cancel`, undefined, { token })).body).to.deep.equal({ detail: 'stock_item_cannot_be_cancelled' });
  });

  it('returns the items to IN_STOCK when their operation is cancelled, and they can be anticipated again', async () => {
    const [item] = await stocked(client, token);
    const first = await requestAnticipation(client, token, anticipationBody([item.id], '10000.00'));
    expect(first.status, first.text).to.equal(201);
    const cancel = await eventually(async () => {
      const res = await client.post(`/v1/operations/${first.body.id}/cancel`, { reason: 'changed our mind' }, { token });
      expect(res.status, res.text).to.equal(200);
      return res;
    });
    expect(cancel.body.lifecycle_status).to.equal('CANCELLED');
    await untilBackInStock(item.id);
    expect((await requestAnticipation(client, token, anticipationBody([item.id], '10000.00'))).status).to.equal(201);
  });

  it('returns the items to IN_STOCK when the backoffice denies their operation', async () => {
    const [item] = await stocked(client, token, stockBody({ items: [stockItem({ net_future_value: '70000.00' })] }));
    const op = await requestAnticipation(client, token, anticipationBody([item.id], '70000.00'));
    expect(op.body.lifecycle_status).to.equal('WAITING_APPROVAL');
    const staff = await loginAs(client, await buildUser());
    await eventually(async () => {
      const res = await client.post(`/v1/backoffice/operations/${op.body.id}/deny`, { reason: 'payer concentration' }, { token: staff });
      expect(res.status, res.text).to.equal(200);
    });
    await untilBackInStock(item.id);
  });
});
