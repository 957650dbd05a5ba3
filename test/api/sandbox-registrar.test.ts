import { expect } from 'chai';
import { anotherApi, sharedApi, sharedSandbox } from '../support/stack';
import { productionEnv } from '../support/config';
import { ApiClient } from '../support/http';
import { buildCredential, tokenFor } from '../support/factories';
import { buildOperationsIntegrator } from '../support/operations';
import { cnpj, formatCnpj, nfeOf } from '../support/documents';
import { SANDBOX_REGISTRAR_API_KEY } from '../../platform/config/config';
import { HttpEscriturador } from '../../providers/escriturador/client';
import { RegistrarError } from '../../providers/provider-errors';
import { rejectionOf } from '../sandbox/support';

/**
 * Integrators place a competitor's acquisition (`/v1/sandbox/registrar/transfers`) and an outage
 * (`/v1/sandbox/registrar/outage`) on the sandbox escriturador through our api; the production
 * adapter then sees them.
 */
describe('the sandbox escriturador\'s controls over HTTP', function () {
  this.timeout(60_000);
  let client: ApiClient;
  let token: string;
  let escriturador: HttpEscriturador;

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildOperationsIntegrator(client));
    escriturador = new HttpEscriturador({ url: (await sharedSandbox()).escrituradorUrl, apiKey: SANDBOX_REGISTRAR_API_KEY, timeoutMs: 2_000 });
  });

  after(() => client.post('/v1/sandbox/registrar/outage', { seconds: 0 }, { token }));

  it('makes another financier the holder of every duplicata of the NF-e; the seller\'s transfer is then refused', async () => {
    const seller = cnpj();
    const competitor = cnpj();
    const { nfe_key: nfeKey } = nfeOf(seller);
    const res = await client.post('/v1/sandbox/registrar/transfers', { nfe_key: nfeKey, holder_document: formatCnpj(competitor) }, { token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.nfe_key).to.equal(nfeKey);
    expect(res.body.duplicatas).to.have.length(1);
    expect(res.body.duplicatas[0]).to.include({ installment: '001', holder_document: competitor });
    const [duplicata] = await escriturador.lookup(nfeKey);
    expect(duplicata).to.include({ duplicataId: res.body.duplicatas[0].duplicata_id, holderDocument: competitor, issuerDocument: seller });
    const outcome = await escriturador.negotiate({
      kind: 'transfer', duplicataId: duplicata.duplicataId, fromDocument: seller, toDocument: cnpj(), negotiationType: 'aquisicao_com_regresso',
    }, `act-${duplicata.duplicataId}`);
    expect(outcome).to.deep.equal({ outcome: 'refused', reason: 'already_transferred' });
  });

  it('refuses with 422 a malformed key, a wrong check digit, an invalid or short CNPJ or a missing field, and transfers nothing', async () => {
    const seller = cnpj();
    const { nfe_key: nfeKey } = nfeOf(seller);
    const wrongDigit = `${nfeKey.slice(0, 43)}${(Number(nfeKey[43]) + 1) % 10}`;
    const cases: [unknown, string][] = [
      [{ nfe_key: '1234', holder_document: cnpj() }, 'validation_error'],
      [{ nfe_key: wrongDigit, holder_document: cnpj() }, 'NFE_KEY_CHECK_DIGIT_MISMATCH'],
      [{ nfe_key: nfeKey, holder_document: '11.222.333/0001-00' }, 'validation_error'],
      // Within the document's length but not 14 characters once the punctuation is gone.
      [{ nfe_key: nfeKey, holder_document: '0'.repeat(31) }, 'validation_error'],
      [{ nfe_key: nfeKey, holder_document: '11.222.333/0001-8' }, 'validation_error'],
      [{ nfe_key: nfeKey }, 'validation_error'],
    ];
    for (const [sent, code] of cases) {
      const res = await client.post('/v1/sandbox/registrar/transfers', sent, { token });
      expect(res.status, JSON.stringify(sent)).to.equal(422);
      expect(res.body.detail.code, JSON.stringify(sent)).to.equal(code);
    }
    expect((await escriturador.lookup(nfeKey))[0].holderDocument).to.equal(seller);
  });

  it('makes the escriturador unreachable for N seconds; 0 ends the outage; a negative N is 422', async () => {
    const { nfe_key: nfeKey } = nfeOf(cnpj());
    const res = await client.post('/v1/sandbox/registrar/outage', { seconds: 120 }, { token });
    expect(res.status, res.text).to.equal(200);
    expect(Date.parse(res.body.until) - Date.now()).to.be.within(60_000, 120_000);
    const err = await rejectionOf(escriturador.lookup(nfeKey));
    expect(err).to.be.instanceOf(RegistrarError);
    expect(err).to.include({ code: 'registrar_unavailable', retryable: true });
    for (const seconds of [-1, 1.5, '10']) expect((await client.post('/v1/sandbox/registrar/outage', { seconds }, { token })).status, String(seconds)).to.equal(422);
    expect((await client.post('/v1/sandbox/registrar/outage', { seconds: 0 }, { token })).status).to.equal(200);
    expect(await escriturador.lookup(nfeKey)).to.have.length(1);
  });

  it('needs a token', async () => {
    expect((await client.post('/v1/sandbox/registrar/outage', { seconds: 1 })).status).to.equal(401);
  });

  it('do not exist in production: 404', async () => {
    const prod = new ApiClient((await anotherApi(productionEnv())).url);
    const prodToken = await tokenFor(prod, await buildCredential({ env: 'prod' }));
    expect((await prod.post('/v1/sandbox/registrar/transfers', { nfe_key: nfeOf(cnpj()).nfe_key, holder_document: cnpj() }, { token: prodToken })).status).to.equal(404);
    expect((await prod.post('/v1/sandbox/registrar/outage', { seconds: 1 }, { token: prodToken })).status).to.equal(404);
  });
});
