import { expect } from 'chai';
import { stripDocument } from '../../domain/documents';
import { startOperationsTest } from '../support/operations';
import { newIdempotencyKey } from '../support/idempotency';
import type { ApiClient } from '../support/http';

/** The reference's whole example bodies of direct creation are bodies the api accepts, as they are. */
describe('direct creation\'s examples in the OpenAPI document', function () {
  this.timeout(60_000);
  let client: ApiClient;
  let token: string;

  before(async () => { ({ client, token } = await startOperationsTest()); });

  it('creates an operation from each, paid as its `bank` says, with an assignor that is none of its payers', async () => {
    const document = (await client.get('/v1/openapi.json')).body;
    const examples: Record<string, { value: Record<string, any> }> = document.paths['/v1/operations/direct'].post.requestBody.content['application/json'].examples;
    expect(Object.keys(examples)).to.deep.equal(['pix_on_document', 'bank_account']);
    const methods: string[] = [];
    for (const { value } of Object.values(examples)) {
      const payers = value.receivables.map((r: { payer_document: string }) => stripDocument(r.payer_document));
      expect(payers).to.not.include(stripDocument(value.cnpj));
      // The product named is the dev seed's, of another originator than this test's.
      const { product_id: _product, ...body } = value;
      const res = await client.post('/v1/operations/direct', body, { token, headers: { 'Idempotency-Key': newIdempotencyKey() } });
      expect(res.status, res.text).to.equal(201);
      methods.push(res.body.disbursement_method);
    }
    expect(methods).to.deep.equal(['pix_document', 'bank_account']);
  });
});
