import { expect } from 'chai';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { sharedApi, testDb } from '../support/stack';
import { anticipationBody, requestAnticipation, simulateAnticipation, stockBody, stocked, stockItem } from '../support/stock';

/** Every stock code of both anticipation routes, with its exact detail shape. */
describe('stock anticipation codes', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildOperationsIntegrator(client));
  });

  /** Both routes answer the same refusal for the same body. */
  async function refusedByBoth(body: Record<string, unknown>, status: number) {
    const simulated = await simulateAnticipation(client, token, body);
    const requested = await requestAnticipation(client, token, body);
    expect(simulated.status, simulated.text).to.equal(status);
    expect(requested.status, requested.text).to.equal(status);
    expect(requested.body).to.deep.equal(simulated.body);
    return requested.body.detail;
  }

  it('refuses unknown ids: 422 some_stock_items_not_found, a string detail', async () => {
    const [item] = await stocked(client, token);
    const detail = await refusedByBoth(anticipationBody([item.id, '0190f0a0-0000-7000-8000-000000000000'], '10000.00'), 422);
    expect(detail).to.equal('some_stock_items_not_found');
  });

  it('refuses an item that is not IN_STOCK: 409 stock_item_<id>_not_available', async () => {
    const [kept, cancelled] = await stocked(client, token, stockBody({ items: [stockItem(), stockItem()] }));
    await client.post(`/v1/stock/${cancelled.id}/cancel`, undefined, { token });
    expect(await refusedByBoth(anticipationBody([kept.id, cancelled.id], '20000.00'), 409)).to.equal(`stock_item_${cancelled.id}_not_available`);
  });

  it('refuses an item not pre-authorized: 409 stock_item_<id>_not_pre_authorized', async () => {
    const [item] = await stocked(client, token, stockBody({ items: [stockItem({ pre_authorized: false })] }));
    expect(await refusedByBoth(anticipationBody([item.id], '10000.00'), 409)).to.equal(`stock_item_${item.id}_not_pre_authorized`);
  });

  it('refuses items of several assignors in one operation', async () => {
    const [a] = await stocked(client, token);
    const [b] = await stocked(client, token);
    expect(await refusedByBoth(anticipationBody([a.id, b.id], '20000.00'), 422)).to.deep.equal({
      code: 'stock_items_of_several_assignors', message: 'One operation anticipates the items of one assignor', assignor_ids: [a.assignor_id, b.assignor_id],
    });
  });

  it('refuses two items with one external_id in one operation', async () => {
    const [a] = await stocked(client, token);
    const { body: assignor } = await client.get(`/v1/assignors/${a.assignor_id}`, { token });
    const [b] = await stocked(client, token, { assignor_document: assignor.document, items: [stockItem({ external_id: a.external_id })] });
    const detail = await refusedByBoth(anticipationBody([a.id, b.id], '20000.00'), 422);
    expect(detail).to.deep.include({ code: 'stock_items_share_external_id', external_id: a.external_id, stock_item_ids: [a.id, b.id] });
  });

  it('refuses a stored NFV that is not positive: STOCK_ITEM_NFV_NOT_POSITIVE', async () => {
    const [item] = await stocked(client, token);
    await testDb()('stock_items').where({ id: item.id }).update({ net_future_value: '0.00' });
    const detail = await refusedByBoth(anticipationBody([item.id], '10000.00'), 422);
    expect(detail).to.deep.include({ code: 'STOCK_ITEM_NFV_NOT_POSITIVE', items: [{ stock_item_id: item.id, external_id: item.external_id, net_face_value: '0.00' }] });
  });

  it('refuses a stored NFV above its gross: STOCK_ITEM_NFV_ABOVE_GROSS', async () => {
    const [item] = await stocked(client, token);
    await testDb()('stock_items').where({ id: item.id }).update({ gross_future_value: '9000.00' });
    const detail = await refusedByBoth(anticipationBody([item.id], '10000.00'), 422);
    expect(detail).to.deep.include({
      code: 'STOCK_ITEM_NFV_ABOVE_GROSS', items: [{ stock_item_id: item.id, external_id: item.external_id, net_face_value: '10000.00', gross_face_value: '9000.00' }],
    });
  });

  it('refuses a requested value other than the sum of the NFVs: STOCK_REQUESTED_VALUE_MISMATCH', async () => {
    const [a, b] = await stocked(client, token, stockBody({ items: [stockItem(), stockItem({ net_future_value: '2500.50' })] }));
    const detail = await refusedByBoth(anticipationBody([a.id, b.id], '12500.49'), 422);
    expect(Object.keys(detail)).to.have.members(['code', 'message', 'requested_advance_value', 'total_net_face_value', 'stock_item_count']);
    expect(detail).to.include({ code: 'STOCK_REQUESTED_VALUE_MISMATCH', requested_advance_value: '12500.49', total_net_face_value: '12500.50', stock_item_count: 2 });
  });

  it('refuses a computed discount at or above the NFV: STOCK_ITEM_DISCOUNT_EXCEEDS_BASE', async () => {
    const [a, b] = await stocked(client, token, stockBody({ items: [stockItem({ net_future_value: '20000.00' }), stockItem()] }));
    const detail = await refusedByBoth(anticipationBody([a.id, b.id], '30000.00', { fees: { fixed_discount_brl: '10000.00' } }), 422);
    expect(detail).to.deep.include({
      code: 'STOCK_ITEM_DISCOUNT_EXCEEDS_BASE', items: [{ stock_item_id: b.id, external_id: b.external_id, net_face_value: '10000.00', discount_brl: '10000.00' }],
    });
  });

  it('checks availability before authorisation, and both before the values', async () => {
    const [unavailable, unauthorised] = await stocked(client, token, stockBody({ items: [stockItem(), stockItem({ pre_authorized: false })] }));
    await client.post(`/v1/stock/${unavailable.id}/cancel`, undefined, { token });
    expect(await refusedByBoth(anticipationBody([unauthorised.id, unavailable.id], '1.00'), 409)).to.equal(`stock_item_${unavailable.id}_not_available`);
    expect(await refusedByBoth(anticipationBody([unauthorised.id], '1.00'), 409)).to.equal(`stock_item_${unauthorised.id}_not_pre_authorized`);
  });
});
