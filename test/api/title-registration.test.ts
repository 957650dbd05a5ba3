import { expect } from 'chai';
import { ApiClient } from '../support/http';
import { cnpj, nfeOf } from '../support/documents';
import { createDirect, directBody, startOperationsTest } from '../support/operations';
import { receivable } from '../support/simulate';

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
