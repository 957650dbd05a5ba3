import { expect } from 'chai';
import { sharedApi, sharedSandbox, anotherApi } from '../support/stack';
import { productionEnv } from '../support/config';
import { ApiClient } from '../support/http';
import { buildCredential, tokenFor } from '../support/factories';
import { buildOperationsIntegrator } from '../support/operations';
import { freshNfeKey, sefazClientFor } from '../support/sefaz';
import type { SefazClient } from '../../providers/sefaz/client';

/**
 * Integrators set what the sandbox SEFAZ answers for a key (`/v1/sandbox/nfe/{key}`) and
 * pause it (`/v1/sandbox/sefaz/outage`) through our api; the production adapter then reads that.
 */
describe('the sandbox SEFAZ\'s controls over HTTP', function () {
  this.timeout(60_000);
  let client: ApiClient;
  let token: string;
  let sefaz: SefazClient;

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildOperationsIntegrator(client));
    sefaz = sefazClientFor((await sharedSandbox()).sefazUrl);
  });

  after(() => client.post('/v1/sandbox/sefaz/outage', { seconds: 0 }, { token }));

  it('sets a key\'s status and payer event from now on; the adapter reads them', async () => {
    const key = freshNfeKey();
    const res = await client.post(`/v1/sandbox/nfe/${key}`, { status: 'cancelled', payer_event: 'not_performed' }, { token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ nfe_key: key, status: 'cancelled', payer_event: 'not_performed', issuer_certificate: 'delegated' });
    expect(await sefaz.consultStatus(key)).to.include({ cStat: '101', outcome: 'cancelled' });
    expect((await sefaz.payerEvents(key, { document: '11222333000181', certificate: null })).events.map((seen) => seen.event)).to.deep.equal(['not_performed']);
  });

  it('payer_event defaults to none, issuer_certificate to delegated', async () => {
    const key = freshNfeKey();
    const res = await client.post(`/v1/sandbox/nfe/${key}`, { status: 'denied' }, { token });
    expect(res.body).to.deep.equal({ nfe_key: key, status: 'denied', payer_event: null, issuer_certificate: 'delegated' });
    expect(await sefaz.consultStatus(key)).to.include({ outcome: 'denied' });
  });

  it('sets a key beyond the consult\'s age (526), and an issuer that did not delegate its certificate (the distribution answers 593)', async () => {
    const key = freshNfeKey();
    const res = await client.post(`/v1/sandbox/nfe/${key}`, { status: 'too_old', payer_event: 'confirmed', issuer_certificate: 'not_delegated' }, { token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ nfe_key: key, status: 'too_old', payer_event: 'confirmed', issuer_certificate: 'not_delegated' });
    expect(await sefaz.consultStatus(key)).to.include({ cStat: '526', outcome: 'too_old' });
    expect(await sefaz.payerEvents(key, { document: '11222333000181', certificate: null })).to.deep.include({ cStat: '593', outcome: 'not_available', events: [] });
  });

  it('refuses with 422 a malformed key, a wrong check digit and values outside the lists, and sets nothing', async () => {
    const key = freshNfeKey();
    const wrongDigit = `${key.slice(0, 43)}${(Number(key[43]) + 1) % 10}`;
    const malformed = await client.post('/v1/sandbox/nfe/1234', { status: 'cancelled' }, { token });
    expect(malformed.status).to.equal(422);
    expect(malformed.body.detail.code).to.equal('validation_error');
    const digit = await client.post(`/v1/sandbox/nfe/${wrongDigit}`, { status: 'cancelled' }, { token });
    expect(digit.status).to.equal(422);
    expect(digit.body.detail.code).to.equal('NFE_KEY_CHECK_DIGIT_MISMATCH');
    for (const sent of [{ status: 'lost' }, { status: 'cancelled', payer_event: 'maybe' }, { status: 'cancelled', issuer_certificate: 'perhaps' }, {}]) {
      const res = await client.post(`/v1/sandbox/nfe/${key}`, sent, { token });
      expect(res.status, JSON.stringify(sent)).to.equal(422);
    }
    expect(await sefaz.consultStatus(key)).to.include({ outcome: 'authorized' });
  });

  it('pauses SEFAZ for N seconds (cStat 109), and 0 ends the outage', async () => {
    const key = freshNfeKey();
    const res = await client.post('/v1/sandbox/sefaz/outage', { seconds: 120 }, { token });
    expect(res.status, res.text).to.equal(200);
    expect(Date.parse(res.body.until) - Date.now()).to.be.within(100_000, 120_000);
    expect(await sefaz.consultStatus(key)).to.include({ cStat: '109', outcome: 'outage' });
    expect((await client.post('/v1/sandbox/sefaz/outage', { seconds: -1 }, { token })).status).to.equal(422);
    await client.post('/v1/sandbox/sefaz/outage', { seconds: 0 }, { token });
    expect(await sefaz.consultStatus(key)).to.include({ cStat: '100', outcome: 'authorized' });
  });

  it('needs a token', async () => {
    expect((await client.post(`/v1/sandbox/nfe/${freshNfeKey()}`, { status: 'cancelled' })).status).to.equal(401);
  });

  it('do not exist in production: 404, and absent from its document', async () => {
    const prod = new ApiClient((await anotherApi(productionEnv())).url);
    const prodToken = await tokenFor(prod, await buildCredential({ env: 'prod' }));
    const res = await prod.post(`/v1/sandbox/nfe/${freshNfeKey()}`, { status: 'cancelled' }, { token: prodToken });
    expect(res.status).to.equal(404);
    expect((await prod.post('/v1/sandbox/sefaz/outage', { seconds: 1 }, { token: prodToken })).status).to.equal(404);
  });
});
