import { expect } from 'chai';
import { sharedApi } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator } from '../support/factories';
import { cnpj, cpf, formatCnpj } from '../support/documents';
import { expectInvisibleToOtherTenant } from '../support/tenancy';

describe('assignors', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildIntegrator(client));
  });

  const company = (overrides: Record<string, unknown> = {}) => ({
    name: 'Padaria Central Ltda', type: 'J', cnpj: formatCnpj(cnpj()), email: 'finance@padaria.example', ...overrides,
  });

  it('registers a company with its CNPJ stored as digits and PIX on the document when no bank is given', async () => {
    const body = company();
    const res = await client.post('/v1/assignors', body, { token });
    expect(res.status).to.equal(201);
    const digits = (body.cnpj as string).replace(/\D/g, '');
    expect(res.body).to.include({ type: 'J', document: digits, cnpj: digits, disbursement_method: null });
    const read = await client.get(`/v1/assignors/${res.body.id}`, { token });
    expect(read.body).to.deep.equal(res.body);
  });

  it('uses a complete bank account as sent, and treats an unknown account type as CC', async () => {
    const res = await client.post('/v1/assignors', company({ bank: { code: '999', agency: '0', account: 'x-1', type: 'ZZ' } }), { token });
    expect(res.body.disbursement_method).to.equal('bank_account');
    expect(res.body.bank).to.deep.equal({ code: '999', agency: '0', account: 'x-1', type: 'CC' });
  });

  it('falls back to PIX on the CNPJ when the bank is incomplete, even for a person that also sends a CNPJ', async () => {
    const person = { name: 'Maria Souza', type: 'F', cpf: cpf(), cnpj: cnpj(), email: 'maria@example.com', bank: { code: '001', agency: '', account: '123' } };
    const res = await client.post('/v1/assignors', person, { token });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ document: person.cpf, disbursement_method: 'pix_document', pix_key_document: person.cnpj });
  });

  it('refuses an invalid check digit with 422 before writing anything', async () => {
    const bad = company({ cnpj: '11.222.333/0001-00' });
    const res = await client.post('/v1/assignors', bad, { token });
    expect(res.status).to.equal(422);
    expect(res.body.detail.errors[0]).to.include({ type: 'value_error' });
    expect(res.body.detail.errors[0].loc).to.deep.equal(['body', 'cnpj']);
    const list = await client.get('/v1/assignors?limit=200', { token });
    expect(list.body.items.map((a: { cnpj: string }) => a.cnpj)).to.not.include('11222333000100');
  });

  it('requires the document of the assignor\'s type', async () => {
    const res = await client.post('/v1/assignors', { name: 'João', type: 'F', email: 'j@example.com' }, { token });
    expect(res.status).to.equal(422);
    expect(res.body.detail.errors[0]).to.include({ type: 'missing' });
    expect(res.body.detail.errors[0].loc).to.deep.equal(['body', 'cpf']);
  });

  it('answers 409 assignor_already_exists for a second registration of one document', async () => {
    const body = company();
    const first = await client.post('/v1/assignors', body, { token });
    const second = await client.post('/v1/assignors', body, { token });
    expect(second.status).to.equal(409);
    expect(second.body.detail).to.include({ code: 'assignor_already_exists', assignor_id: first.body.id });
  });

  it('lists newest first with total, and hides assignors from other originators', async () => {
    const first = await client.post('/v1/assignors', company(), { token });
    const second = await client.post('/v1/assignors', company(), { token });
    const list = await client.get('/v1/assignors?limit=2', { token });
    expect(list.body.items.map((a: { id: string }) => a.id)).to.deep.equal([second.body.id, first.body.id]);
    expect(list.body.total).to.be.at.least(2);
    await expectInvisibleToOtherTenant(client, { id: first.body.id, itemPath: (id) => `/v1/assignors/${id}`, listPath: '/v1/assignors', notFoundCode: 'assignor_not_found' });
  });
});
