import { expect } from 'chai';
import { formatCnpj } from '../support/documents';
import { v7 as uuidv7 } from 'uuid';
import { sharedApi } from '../support/stack';
import { ApiClient } from '../support/http';
import { cnpj } from '../support/documents';
import { tokenFor } from '../support/factories';
import { buildOperationsIntegrator, directBody } from '../support/operations';
import { expectInvisibleToOtherTenant } from '../support/tenancy';
import { dueIn, receivable } from '../support/simulate';
import { bodyOf, created } from '../support/operation-checks';

const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((item) => item.id);

/** GET /v1/operations, /v1/operations/{id}, /v1/titles and /v1/titles/{id}. */
describe('operation and title reads', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
  });

  describe('GET /v1/operations', () => {
    let ops: { id: string }[];
    before(async () => {
      ({ token } = await buildOperationsIntegrator(client));
      ops = [];
      // born APPROVED_DIRECT, WAITING_APPROVAL (above 50,000.00), APPROVED_DIRECT
      for (const value of ['10000.00', '60000.00', '20000.00']) ops.push(await created(client, token, bodyOf(value)));
    });

    it('lists newest first with total, limit and offset', async () => {
      const all = await client.get('/v1/operations', { token });
      expect(all.status).to.equal(200);
      expect(ids(all)).to.deep.equal([ops[2].id, ops[1].id, ops[0].id]);
      expect(all.body).to.include({ total: 3, limit: 50, offset: 0 });
      const first = await client.get('/v1/operations?limit=2', { token });
      const second = await client.get('/v1/operations?limit=2&offset=2', { token });
      expect([ids(first), first.body.total]).to.deep.equal([[ops[2].id, ops[1].id], 3]);
      expect([ids(second), second.body.total]).to.deep.equal([[ops[0].id], 3]);
    });

    it('filters by lifecycle_status, total counted after the filter', async () => {
      const waiting = await client.get('/v1/operations?lifecycle_status=WAITING_APPROVAL', { token });
      expect([ids(waiting), waiting.body.total]).to.deep.equal([[ops[1].id], 1]);
      expect(waiting.body.items[0]).to.include({ lifecycle_status: 'WAITING_APPROVAL', status: null });
      const none = await client.get('/v1/operations?lifecycle_status=CANCELLED', { token });
      expect([ids(none), none.body.total]).to.deep.equal([[], 0]);
    });

    it('refuses a limit outside 1..200 or an unknown lifecycle_status with 422 validation_error', async () => {
      for (const query of ['limit=0', 'limit=201', 'offset=-1', 'lifecycle_status=SOMETHING']) {
        const res = await client.get(`/v1/operations?${query}`, { token });
        expect(res.status, query).to.equal(422);
        expect(res.body.detail.code, query).to.equal('validation_error');
      }
    });

    it('requires the operation:read scope', async () => {
      const { credential } = await buildOperationsIntegrator(client);
      const createOnly = await tokenFor(client, credential, ['operation:create']);
      const res = await client.get('/v1/operations', { token: createOnly });
      expect(res.status).to.equal(403);
      expect(res.body.detail.code).to.equal('scope_insufficient');
    });
  });

  describe('GET /v1/operations/{id}', () => {
    before(async () => { ({ token } = await buildOperationsIntegrator(client)); });

    it('reads what creation answered, with lifecycle_status filled, status null and created_at / updated_at set', async () => {
      const op = await created(client, token, bodyOf('60000.00', {}, { requested_net_future_value: '55000.00' }));
      const read = await client.get(`/v1/operations/${op.id}`, { token });
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal({ ...op, status: null, lifecycle_status: 'WAITING_APPROVAL', created_at: read.body.created_at, updated_at: read.body.updated_at });
      for (const stamp of [read.body.created_at, read.body.updated_at]) expect(new Date(stamp).toISOString()).to.equal(stamp);
      expect(read.body).to.include({ opr_gross_face_value: '60000.00', opr_discounted_value: op.opr_present_value_discount, opr_liquid_value: op.opr_net_present_liquid_value });
    });

    it('answers 404 operation_not_found for an unknown id', async () => {
      const res = await client.get(`/v1/operations/${uuidv7()}`, { token });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ detail: 'operation_not_found' });
    });

    it('hides an operation from another originator: 404 and absent from its list', async () => {
      const op = await created(client, token);
      await expectInvisibleToOtherTenant(client, { id: op.id, itemPath: (id) => `/v1/operations/${id}`, listPath: '/v1/operations', notFoundCode: 'operation_not_found' });
    });
  });

  describe('GET /v1/titles and /v1/titles/{id}', () => {
    let op: { id: string; titles: { id: string; external_id: string; nfe_check?: unknown }[] };
    const payerA = cnpj();
    const payerB = cnpj();
    const titleIds = (...externalIds: string[]) => externalIds.map((e) => op.titles.find((t) => t.external_id === e)!.id).sort();
    const listed = async (query: string) => {
      const res = await client.get(`/v1/titles?operation_id=${op.id}&${query}`, { token });
      expect(res.status, res.text).to.equal(200);
      return { ids: ids(res).sort(), total: res.body.total };
    };
    before(async () => {
      ({ token } = await buildOperationsIntegrator(client));
      op = await created(client, token, directBody({
        receivables: [
          receivable({ external_id: 'T30', payer_document: payerA, due_date: dueIn(30) }),
          receivable({ external_id: 'T60', payer_document: payerB, due_date: dueIn(60) }),
          receivable({ external_id: 'T90', payer_document: payerA, due_date: dueIn(90), requested_net_future_value: '4000.00' }),
        ],
      }));
    });

    it('filters by operation_id, status, payer_document and an inclusive due-date window', async () => {
      expect(await listed('')).to.deep.equal({ ids: titleIds('T30', 'T60', 'T90'), total: 3 });
      expect(await listed('status=WAITING_PAYMENT')).to.deep.equal({ ids: titleIds('T30', 'T60', 'T90'), total: 3 });
      expect(await listed('status=PAID')).to.deep.equal({ ids: [], total: 0 });
      expect(await listed(`payer_document=${payerA}`)).to.deep.equal({ ids: titleIds('T30', 'T90'), total: 2 });
      expect(await listed(`payer_document=${encodeURIComponent(formatCnpj(payerA))}`), 'punctuation accepted').to.deep.equal({ ids: titleIds('T30', 'T90'), total: 2 });
      expect(await listed(`due_date_from=${dueIn(30)}&due_date_to=${dueIn(60)}`)).to.deep.equal({ ids: titleIds('T30', 'T60'), total: 2 });
      expect(await listed(`due_date_from=${dueIn(31)}`)).to.deep.equal({ ids: titleIds('T60', 'T90'), total: 2 });
    });

    it('paginates with the total before pagination', async () => {
      const page = await client.get(`/v1/titles?operation_id=${op.id}&limit=2&offset=0`, { token });
      const rest = await client.get(`/v1/titles?operation_id=${op.id}&limit=2&offset=2`, { token });
      expect([page.body.items.length, page.body.total, rest.body.items.length, rest.body.total]).to.deep.equal([2, 3, 1, 3]);
      expect([...ids(page), ...ids(rest)].sort()).to.deep.equal(titleIds('T30', 'T60', 'T90'));
    });

    it('reads one title as creation listed it, with its outstanding balance', async () => {
      const [partialId] = titleIds('T90');
      const res = await client.get(`/v1/titles/${partialId}`, { token });
      expect(res.status).to.equal(200);
      // The operation read's titles add the NF-e check (an operation-level view); the rest is the Title itself.
      const { nfe_check: _nfeCheck, ...listed } = op.titles.find((t) => t.id === partialId)!;
      expect(res.body).to.deep.equal(listed);
      expect(res.body).to.include({ operation_id: op.id, outstanding_balance: '4000.00', paid_amount: '0.00', status: 'WAITING_PAYMENT', payer_document: payerA });
    });

    it('answers 404 title_not_found for an unknown id and hides titles from another originator', async () => {
      const res = await client.get(`/v1/titles/${uuidv7()}`, { token });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ detail: 'title_not_found' });
      await expectInvisibleToOtherTenant(client, { id: op.titles[0].id, itemPath: (id) => `/v1/titles/${id}`, listPath: '/v1/titles', notFoundCode: 'title_not_found' });
    });
  });
});
