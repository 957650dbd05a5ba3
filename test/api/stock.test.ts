import { expect } from 'chai';
import { eventId } from '../../domain/events';
import { buildIntegrator } from '../support/factories';
import { formatCnpj } from '../support/documents';
import { ApiClient } from '../support/http';
import { newIdempotencyKey } from '../support/idempotency';
import { buildOperationsIntegrator } from '../support/operations';
import { sharedApi, testDb } from '../support/stack';
import { expectInvisibleToOtherTenant } from '../support/tenancy';
import { postStock, stockBody, stocked, stockItem } from '../support/stock';

describe('POST /v1/stock and the stock reads', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildOperationsIntegrator(client));
  });

  it('registers items IN_STOCK, pre-authorized by default, every value under both names, and their assignor on first use', async () => {
    const body = stockBody({ items: [stockItem({ nfe_number: '123', nfe_issue_date: '2026-01-05', nfe_total_value: 15000 }), stockItem({ pre_authorized: false })] });
    const res = await postStock(client, token, body);
    expect(res.status, res.text).to.equal(201);
    const [first, second] = res.body.items;
    expect(first).to.include({
      status: 'IN_STOCK', pre_authorized: true, external_id: (body.items as any)[0].external_id, backing_type: 'NFE', nfe_number: '123',
      nfe_issue_date: '2026-01-05', nfe_total_value: '15000.00', net_future_value: '10000.00', net_face_value: '10000.00',
      gross_future_value: '10000.00', gross_face_value: '10000.00', gross_future_value_deductions: null, operation_id: null, assignor_id: res.body.assignor_id,
    });
    expect(second.pre_authorized).to.equal(false);
    const assignor = await client.get(`/v1/assignors/${res.body.assignor_id}`, { token });
    expect(assignor.body).to.include({ document: body.cnpj, disbursement_method: null });
    expect((await client.get(`/v1/stock/${first.id}`, { token })).body).to.deep.equal(first);
  });

  it('keeps gross and deductions when they decompose the NFV exactly', async () => {
    const [item] = await stocked(client, token, stockBody({ items: [stockItem({ gross_future_value: '12000', gross_future_value_deductions: '2000.00' })] }));
    expect(item).to.include({ gross_future_value: '12000.00', gross_face_value: '12000.00', gross_future_value_deductions: '2000.00', net_future_value: '10000.00' });
  });

  it('writes one stock.item_registered event per item, with a deterministic id', async () => {
    const [item] = await stocked(client, token);
    const row = await testDb()('events').where({ event_id: eventId(item.id, 'stock.item_registered') }).first();
    expect(row.event_type).to.equal('stock.item_registered');
    expect(row.data).to.include({
      stock_item_id: item.id, external_id: item.external_id, originator_id: row.originator_id, assignor_id: item.assignor_id,
      net_future_value: '10000.00', gross_future_value: '10000.00',
    });
  });

  it('replays the identical body for the same Idempotency-Key and registers once', async () => {
    const { token: own } = await buildOperationsIntegrator(client);
    const body = stockBody();
    const key = newIdempotencyKey();
    const original = await postStock(client, own, body, key);
    const replay = await postStock(client, own, body, key);
    expect(original.status, original.text).to.equal(201);
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotency-replayed')).to.equal('true');
    expect(replay.text).to.equal(original.text);
    expect((await client.get('/v1/stock', { token: own })).body.total).to.equal(1);
  });

  it('requires an Idempotency-Key', async () => {
    const res = await client.post('/v1/stock', stockBody(), { token });
    expect(res.status).to.equal(422);
    expect(res.body.detail.code).to.equal('idempotency_key_required');
  });

  it('takes a registered assignor by assignor_document, punctuation accepted', async () => {
    const [first] = await stocked(client, token);
    const { body: assignor } = await client.get(`/v1/assignors/${first.assignor_id}`, { token });
    const [second] = await stocked(client, token, { assignor_document: formatCnpj(assignor.document), items: [stockItem()] });
    expect(second.assignor_id).to.equal(first.assignor_id);
  });

  it('refuses an assignor_document the originator has not registered with 422 assignor_not_found', async () => {
    const body = stockBody();
    const res = await postStock(client, token, { assignor_document: body.cnpj, items: body.items });
    expect(res.status).to.equal(422);
    expect(res.body.detail).to.deep.include({ code: 'assignor_not_found', assignor_document: body.cnpj });
  });

  it('refuses a registration that names no assignor', async () => {
    const res = await postStock(client, token, { items: [stockItem()] });
    expect(res.status).to.equal(422);
    expect(res.body.detail.errors).to.have.length(1);
    expect(res.body.detail.errors[0]).to.include({ type: 'missing' }).and.to.have.deep.property('loc', ['body', 'assignor_document']);
  });

  describe('values', () => {
    const refusal = async (item: Record<string, unknown>) => {
      const res = await postStock(client, token, stockBody({ items: [stockItem(), stockItem(item)] }));
      expect(res.status, res.text).to.equal(422);
      return res.body.detail;
    };

    it('refuses NFV above gross as a schema failure', async () => {
      const detail = await refusal({ gross_face_value: '9000.00' });
      expect(detail.code).to.equal('validation_error');
      expect(detail.errors[0]).to.deep.include({ loc: ['body', 'items', 1, 'net_future_value'], type: 'value_error' });
    });

    it('refuses an NFV of zero or below', async () => {
      expect((await refusal({ net_future_value: 0 })).errors[0]).to.deep.include({ loc: ['body', 'items', 1, 'net_future_value'], type: 'greater_than' });
      expect((await refusal({ net_future_value: '-1.00' })).errors[0]).to.deep.include({ loc: ['body', 'items', 1, 'net_future_value'], type: 'greater_than_equal' });
    });

    it('refuses both names of the NFV with different numbers: VOCABULARY_CONFLICT', async () => {
      const detail = await refusal({ net_face_value: '9000' });
      expect(detail.code).to.equal('VOCABULARY_CONFLICT');
      expect(detail.fields).to.deep.equal([{
        public_field: 'net_future_value', public_value: '10000.00', deprecated_field: 'net_face_value', deprecated_value: '9000.00', loc: ['body', 'items', 1],
      }]);
    });

    it('refuses gross_future_value without deductions: DEDUCTIONS_REQUIRED_WITH_GROSS', async () => {
      const detail = await refusal({ gross_future_value: '12000.00' });
      expect(detail).to.deep.include({ code: 'DEDUCTIONS_REQUIRED_WITH_GROSS', fields: ['gross_future_value', 'gross_future_value_deductions'] });
    });

    it('refuses an NFV that is not gross minus deductions: VALUE_DECOMPOSITION_MISMATCH', async () => {
      const detail = await refusal({ gross_future_value: '12000.00', gross_future_value_deductions: '1000.00' });
      expect(detail).to.deep.include({
        code: 'VALUE_DECOMPOSITION_MISMATCH', gross_future_value: '12000.00', gross_future_value_deductions: '1000.00',
        net_future_value: '10000.00', expected_net_future_value: '11000.00',
      });
    });

    it('refuses a repeated external_id and a payer document with a wrong check digit, all in one 422', async () => {
      const item = stockItem();
      const res = await postStock(client, token, stockBody({ items: [item, { ...stockItem(), external_id: item.external_id, payer_document: '11222333000180' }] }));
      expect(res.status).to.equal(422);
      expect(res.body.detail.errors.map((e: any) => e.loc)).to.deep.equal([['body', 'items', 1, 'external_id'], ['body', 'items', 1, 'payer_document']]);
    });
  });

  it('lists the items newest first with total, limit and offset, filtered by status', async () => {
    const { token: own } = await buildOperationsIntegrator(client);
    const [older, newer] = await stocked(client, own, stockBody({ items: [stockItem(), stockItem()] }));
    expect((await client.post(`/v1/stock/${older.id}/cancel`, undefined, { token: own })).status).to.equal(200);
    const all = await client.get('/v1/stock?limit=1', { token: own });
    expect(all.body).to.include({ total: 2, limit: 1, offset: 0 });
    expect(all.body.items.map((i: any) => i.id)).to.deep.equal([newer.id]);
    const inStock = await client.get('/v1/stock?status=IN_STOCK', { token: own });
    expect(inStock.body.total).to.equal(1);
    expect(inStock.body.items[0].id).to.equal(newer.id);
    expect((await client.get('/v1/stock?status=CANCELLED', { token: own })).body.items[0].id).to.equal(older.id);
  });

  it('answers 404 stock_item_not_found for an unknown item', async () => {
    const res = await client.get('/v1/stock/0190f0a0-0000-7000-8000-000000000000', { token });
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ detail: 'stock_item_not_found' });
  });

  it('keeps items invisible to another tenant', async () => {
    const [item] = await stocked(client, token);
    await expectInvisibleToOtherTenant(client, { id: item.id, itemPath: (id) => `/v1/stock/${id}`, listPath: '/v1/stock', notFoundCode: 'stock_item_not_found' });
  });

  it('reads with stock:read alone and needs stock:write to register', async () => {
    const { token: reader } = await buildIntegrator(client, { scopes: ['stock:read'] });
    expect((await client.get('/v1/stock', { token: reader })).status).to.equal(200);
    const res = await postStock(client, reader, stockBody());
    expect(res.status).to.equal(403);
    expect(res.body.detail.code).to.equal('scope_insufficient');
  });

  it('documents every stock route with its scopes and its required Idempotency-Key', async () => {
    const { body: document } = await client.get('/v1/openapi.json');
    const scopes = (path: string, method: string) => document.paths[path][method].security.flatMap((s: any) => s.clientCredentials ?? []);
    const keyed = (path: string) => document.paths[path].post.parameters.some((p: any) => p.$ref.endsWith('/IdempotencyKeyRequired'));
    expect(scopes('/v1/stock', 'post')).to.deep.equal(['stock:write']);
    expect(scopes('/v1/stock', 'get')).to.deep.equal(['stock:read', 'stock:write']);
    expect(scopes('/v1/stock/{item_id}', 'patch')).to.deep.equal(['stock:write']);
    expect(scopes('/v1/stock/simulate-anticipation', 'post')).to.deep.equal(['stock:read', 'stock:write']);
    expect(scopes('/v1/stock/request-anticipation', 'post')).to.deep.equal(['stock:write']);
    expect(keyed('/v1/stock') && keyed('/v1/stock/request-anticipation')).to.equal(true);
    expect(Object.keys(document.paths['/v1/stock/{item_id}/cancel'].post.responses)).to.include.members(['200', '404', '409']);
  });
});
