import { expect } from 'chai';
import { ApiClient } from '../support/http';
import { cnpj, formatCnpj, nfeOf } from '../support/documents';
import { createDirect, directBody, startOperationsTest } from '../support/operations';
import { receivable } from '../support/simulate';
import { registerAtSandbox } from '../support/registration';
import { testDb } from '../support/stack';

const NOT_RECORDED = { registrar: null, duplicata_id: null, act_id: null, negotiation_type: null, registered_at: null, refusal_reason: null };

/** Each title's `registration`: our act on its duplicata at the escriturador, as every title read shows it. */
describe('a title\'s registration in its reads', function () {
  this.timeout(60_000);
  let client: ApiClient;
  let token: string;
  before(async () => ({ client, token } = await startOperationsTest()));

  it('says a BOLETO, an NFC-e and an invoice without a key are not registrable, and an NF-e not requested yet, in the title read, the list and the operation read', async () => {
    const assignor = cnpj();
    const body = directBody({
      cnpj: assignor,
      receivables: [
        receivable({ external_id: 'BOLETO', backing_type: 'BOLETO', identifier: 'nosso-numero-1' }),
        receivable({ external_id: 'NFCE', ...nfeOf(assignor, { model: '65' }) }),
        receivable({ external_id: 'PLAIN' }),
        receivable({ external_id: 'NFE', ...nfeOf(assignor) }),
      ],
    });
    const res = await createDirect(client, token, body);
    expect(res.status, res.text).to.equal(201);
    const expected = (externalId: string) => ({ status: externalId === 'NFE' ? 'not_requested' : 'not_registrable', ...NOT_RECORDED });
    for (const title of res.body.titles) expect(title.registration, title.external_id).to.deep.equal(expected(title.external_id));
    const read = await client.get(`/v1/operations/${res.body.id}`, { token });
    for (const title of read.body.titles) {
      expect(title.registration, title.external_id).to.deep.equal(expected(title.external_id));
      expect((await client.get(`/v1/titles/${title.id}`, { token })).body.registration).to.deep.equal(expected(title.external_id));
    }
    const list = await client.get(`/v1/titles?operation_id=${res.body.id}`, { token });
    expect(list.body.items).to.have.length(4);
    for (const title of list.body.items) expect(title.registration, title.external_id).to.deep.equal(expected(title.external_id));
  });
});

/** At creation, for an originator that registers its acquisitions: each NF-e's duplicata looked up at the escriturador within the request's budget. */
describe('the lookup at the escriturador at creation', function () {
  this.timeout(60_000);
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  before(async () => {
    ({ client, token, originatorId } = await startOperationsTest());
    await registerAtSandbox(originatorId);
  });
  afterEach(() => client.post('/v1/sandbox/registrar/outage', { seconds: 0 }, { token }));

  const withNfe = () => {
    const assignor = cnpj();
    const nfe = nfeOf(assignor);
    return { key: nfe.nfe_key, body: directBody({ cnpj: assignor, receivables: [receivable({ external_id: 'BOLETO', backing_type: 'BOLETO' }), receivable({ external_id: 'NF-TAKEN', ...nfe })] }) };
  };
  const operationsOf = async () => (await testDb()('operations').where({ originator_id: originatorId }).count<{ count: string }[]>({ count: '*' }))[0].count;

  it('answers 409 receivable_encumbered naming the receivable, and writes nothing, when another financier holds its duplicata', async () => {
    const { key, body } = withNfe();
    const taken = await client.post('/v1/sandbox/registrar/transfers', { nfe_key: key, holder_document: formatCnpj(cnpj()) }, { token });
    expect(taken.status, taken.text).to.equal(200);
    const before = await operationsOf();
    const res = await createDirect(client, token, body);
    expect(res.status, res.text).to.equal(409);
    expect(res.body.detail).to.include({ code: 'receivable_encumbered', external_id: 'NF-TAKEN', nfe_key: key, duplicata_id: taken.body.duplicatas[0].duplicata_id, installment: '001' });
    expect(res.body.detail.loc).to.deep.equal(['body', 'receivables', 1, 'nfe_key']);
    expect(res.body.detail.message).to.include('NF-TAKEN');
    expect(await operationsOf()).to.equal(before);
  });

  it('creates the operation when the assignor still holds the duplicata', async () => {
    const { body } = withNfe();
    expect((await createDirect(client, token, body)).status).to.equal(201);
  });

  it('creates the operation when the escriturador is down: the workflow registers later', async () => {
    const { key, body } = withNfe();
    await client.post('/v1/sandbox/registrar/transfers', { nfe_key: key, holder_document: formatCnpj(cnpj()) }, { token });
    expect((await client.post('/v1/sandbox/registrar/outage', { seconds: 120 }, { token })).status).to.equal(200);
    const res = await createDirect(client, token, body);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.titles.find((t: { external_id: string }) => t.external_id === 'NF-TAKEN').registration.status).to.equal('not_requested');
  });
});
