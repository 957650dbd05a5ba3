import { expect } from 'chai';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { sharedApi } from '../support/stack';
import { stockBody, stocked, stockItem } from '../support/stock';

const UNKNOWN = '0190f0a0-0000-7000-8000-000000000000';

describe('PATCH /v1/stock/{item_id} and POST /v1/stock/{item_id}/cancel', () => {
  let client: ApiClient;
  let token: string;
  const patch = (id: string, body: Record<string, unknown>) => client.patch(`/v1/stock/${id}`, body, { token });
  const cancel = (id: string) => client.post(`/v1/stock/${id}/cancel`, undefined, { token });
  const withGross = async () => (await stocked(client, token, stockBody({ items: [stockItem({ gross_future_value: '12000.00', gross_future_value_deductions: '2000.00' })] })))[0];

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildOperationsIntegrator(client));
  });

  it('changes pre_authorized and leaves what the body does not name', async () => {
    const [item] = await stocked(client, token);
    const res = await patch(item.id, { pre_authorized: false });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ pre_authorized: false, net_future_value: '10000.00', status: 'IN_STOCK' });
    expect((await client.get(`/v1/stock/${item.id}`, { token })).body.pre_authorized).to.equal(false);
  });

  it('changes the values under either name, and answers both', async () => {
    const item = await withGross();
    const res = await patch(item.id, { net_face_value: '11000', gross_future_value_deductions: '1000.00', gross_future_value: null });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ net_future_value: '11000.00', net_face_value: '11000.00', gross_future_value: '12000.00', gross_future_value_deductions: '1000.00' });
  });

  it('checks NFV against the gross the item would end up with: STOCK_ITEM_NFV_ABOVE_GROSS', async () => {
    const item = await withGross();
    for (const body of [{ net_future_value: '13000.00' }, { gross_face_value: '9000.00' }]) {
      const res = await patch(item.id, body);
      expect(res.status, res.text).to.equal(422);
      const gross = 'gross_face_value' in body ? '9000.00' : '12000.00';
      const net = 'net_future_value' in body ? '13000.00' : '10000.00';
      expect(res.body.detail).to.deep.include({
        code: 'STOCK_ITEM_NFV_ABOVE_GROSS', items: [{ stock_item_id: item.id, external_id: item.external_id, net_face_value: net, gross_face_value: gross }],
      });
    }
    expect((await client.get(`/v1/stock/${item.id}`, { token })).body).to.include({ net_future_value: '10000.00', gross_future_value: '12000.00' });
  });

  it('applies the vocabulary codes to the values sent', async () => {
    const item = await withGross();
    const codeOf = async (body: Record<string, unknown>) => (await patch(item.id, body)).body.detail.code;
    expect(await codeOf({ net_future_value: '9000.00', net_face_value: '9500.00' })).to.equal('VOCABULARY_CONFLICT');
    expect(await codeOf({ gross_future_value: '15000.00' })).to.equal('DEDUCTIONS_REQUIRED_WITH_GROSS');
    expect(await codeOf({ gross_future_value: '15000.00', gross_future_value_deductions: '1000.00', net_future_value: '10000.00' })).to.equal('VALUE_DECOMPOSITION_MISMATCH');
  });

  it('refuses an NFV of zero and an empty body as schema failures', async () => {
    const [item] = await stocked(client, token);
    const zero = await patch(item.id, { net_future_value: '0.00' });
    expect(zero.status).to.equal(422);
    expect(zero.body.detail.errors[0]).to.deep.include({ loc: ['body', 'net_future_value'], type: 'greater_than' });
    expect((await patch(item.id, {})).body.detail.code).to.equal('validation_error');
  });

  it('answers 404 stock_item_not_found for an unknown item, on both routes', async () => {
    for (const res of [await patch(UNKNOWN, { pre_authorized: true }), await cancel(UNKNOWN)]) {
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ detail: 'stock_item_not_found' });
    }
  });

  it('cancels an IN_STOCK item once; a cancelled item can be neither cancelled nor changed', async () => {
    const [item] = await stocked(client, token);
    const res = await cancel(item.id);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.status).to.equal('CANCELLED');
    const again = await cancel(item.id);
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.equal({ detail: 'stock_item_cannot_be_cancelled' });
    const change = await patch(item.id, { pre_authorized: false });
    expect(change.status).to.equal(409);
    expect(change.body).to.deep.equal({ detail: 'stock_item_not_in_stock' });
  });

  it('lets another tenant neither change nor cancel an item', async () => {
    const [item] = await stocked(client, token);
    const { token: stranger } = await buildOperationsIntegrator(client);
    expect((await client.patch(`/v1/stock/${item.id}`, { pre_authorized: false }, { token: stranger })).status).to.equal(404);
    expect((await client.post(`/v1/stock/${item.id}/cancel`, undefined, { token: stranger })).status).to.equal(404);
    expect((await client.get(`/v1/stock/${item.id}`, { token })).body).to.include({ status: 'IN_STOCK', pre_authorized: true });
  });
});
