import { expect } from 'chai';
import { anotherApi, sharedApi, sharedSandbox, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator } from '../support/factories';
import { cnpj, nfeOf } from '../support/documents';
import { mutualTlsCa, MutualTlsFront, mutualTlsFront, pkcs12Of } from '../support/mutual-tls';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { receivable } from '../support/simulate';
import { setSandboxNfe } from '../support/sefaz';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { issuerCertificate } from '../../db/repositories/assignor-nfe-certificates';
import { throwAwayA1 } from '../../scripts/lib/a1-certificate.mjs';

const DAY_MS = 86_400_000;


/**
 * An assignor's delegated A1 certificate for SEFAZ's distribution: stored sealed once it opens with
 * its password and is the assignor's, read back as metadata only, removed; each refusal a 422 with
 * its code and nothing stored; another originator's assignor is not found.
 */
describe('assignors\' delegated NF-e certificates', function () {
  this.timeout(60_000);
  let client: ApiClient;
  let token: string;
  let otherToken: string;

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildIntegrator(client));
    ({ token: otherToken } = await buildIntegrator(client));
  });

  const assignor = async () => {
    const document = cnpj();
    const res = await client.post('/v1/assignors', { name: 'Padaria Central Ltda', type: 'J', cnpj: document, email: 'finance@padaria.example' }, { token });
    expect(res.status, res.text).to.equal(201);
    return { id: res.body.id as string, document };
  };
  const path = (id: string) => `/v1/assignors/${id}/nfe-certificate`;
  const stored = async (id: string) => testDb()('assignor_nfe_certificates').where({ assignor_id: id }).first();

  it('stores the certificate sealed (file and password) and answers its metadata only; GET reads it, DELETE removes it', async () => {
    const { id, document } = await assignor();
    const pfx = await throwAwayA1(document, 'a1-password');
    const put = await client.put(path(id), { pfx, password: 'a1-password' }, { token });
    expect(put.status, put.text).to.equal(200);
    expect(Object.keys(put.body).sort()).to.deep.equal(['assignor_id', 'not_after', 'serial', 'subject', 'uploaded_at']);
    expect(put.body.assignor_id).to.equal(id);
    expect(put.body.subject).to.include(`CN=PADARIA CENTRAL LTDA:${document}`);
    expect(put.body.serial).to.match(/^[0-9A-F]+$/);
    expect(Date.parse(put.body.not_after)).to.be.greaterThan(Date.now());
    expect(put.text).to.not.include('a1-password').and.not.include(pfx.slice(0, 32));

    const row = await stored(id);
    expect(row.sealed_pfx).to.match(/^enc:v1:/).and.not.include(pfx.slice(0, 32));
    expect(row.sealed_passphrase).to.match(/^enc:v1:/).and.not.include('a1-password');
    // What the worker presents to SEFAZ: the file and password as sent.
    const opened = await issuerCertificate(testDb(), new CipherRing(testConfig().payloadKeys), id);
    expect(Buffer.from(opened!.pfx).toString('base64')).to.equal(pfx);
    expect(opened!.passphrase).to.equal('a1-password');

    const read = await client.get(path(id), { token });
    expect(read.status, read.text).to.equal(200);
    expect(read.body).to.deep.equal(put.body);

    expect((await client.delete(path(id), { token })).status).to.equal(204);
    expect(await stored(id)).to.equal(undefined);
    expect(await issuerCertificate(testDb(), new CipherRing(testConfig().payloadKeys), id)).to.equal(null);
    const gone = await client.get(path(id), { token });
    expect(gone.status).to.equal(404);
    expect(gone.body.detail).to.equal('nfe_certificate_not_found');
    expect((await client.delete(path(id), { token })).status).to.equal(404);
  });

  it('a new certificate replaces the old one; a branch\'s certificate (same CNPJ root) is the assignor\'s too', async () => {
    const { id, document } = await assignor();
    const first = await client.put(path(id), { pfx: await throwAwayA1(document, 'one'), password: 'one' }, { token });
    expect(first.status, first.text).to.equal(200);
    const branch = `${document.slice(0, 8)}000299`;
    const second = await client.put(path(id), { pfx: await throwAwayA1(branch, 'two'), password: 'two' }, { token });
    expect(second.status, second.text).to.equal(200);
    expect(second.body.serial).to.not.equal(first.body.serial);
    expect(await testDb()('assignor_nfe_certificates').where({ assignor_id: id }).pluck('serial')).to.deep.equal([second.body.serial]);
    expect((await client.get(path(id), { token })).body.serial).to.equal(second.body.serial);
  });

  it('refuses, with 422 and its code and nothing stored: a wrong password, a file that is no PKCS#12, another company\'s certificate, an expired one', async () => {
    const { id, document } = await assignor();
    const refusals: [string, Record<string, unknown>][] = [
      ['certificate_unreadable', { pfx: await throwAwayA1(document, 'right-password'), password: 'wrong-password' }],
      ['certificate_unreadable', { pfx: Buffer.from('not a pkcs12 file').toString('base64'), password: 'any-password' }],
      ['certificate_not_assignors', { pfx: await throwAwayA1(cnpj(), 'other-password'), password: 'other-password' }],
      ['certificate_expired', { pfx: await throwAwayA1(document, 'old-password', new Date(Date.now() - DAY_MS)), password: 'old-password' }],
    ];
    for (const [code, body] of refusals) {
      const res = await client.put(path(id), body, { token });
      expect(res.status, `${code}: ${res.text}`).to.equal(422);
      expect(res.body.detail).to.include({ code });
      expect(res.body.detail.loc).to.deep.equal(['body', 'pfx']);
      expect(res.text).to.not.include(body.password as string);
    }
    expect(await stored(id)).to.equal(undefined);
  });

  it('another originator\'s assignor, or an unknown one, is not found, and its certificate untouched', async () => {
    const { id, document } = await assignor();
    const pfx = await throwAwayA1(document, 'pw');
    expect((await client.put(path(id), { pfx, password: 'pw' }, { token })).status).to.equal(200);
    const asOther = { token: otherToken };
    for (const res of [await client.put(path(id), { pfx, password: 'pw' }, asOther), await client.get(path(id), asOther), await client.delete(path(id), asOther)]) {
      expect(res.status, res.text).to.equal(404);
      expect(res.body.detail).to.equal('assignor_not_found');
    }
    expect((await client.get(path('0190a000-0000-7000-8000-000000000000'), { token })).status).to.equal(404);
    expect(await stored(id)).to.not.equal(undefined);
  });

  describe('at creation, SEFAZ\'s distribution asked with the stored certificate', () => {
    let front: MutualTlsFront;
    after(() => front?.close());

    it('without it the payer\'s word is not heard (no verdict: created); with it a payer who disowned the NF-e refuses the request', async () => {
      const document = cnpj();
      const ca = await mutualTlsCa('SEFAZ AN', `PADARIA CENTRAL LTDA:${document}`);
      front = await mutualTlsFront((await sharedSandbox()).sefazUrl, ca);
      // Only the distribution is behind mutual TLS, and no platform certificate is configured: only the assignor's passes.
      const api = new ApiClient((await anotherApi({ SEFAZ_DISTRIBUTION_URL: `${front.url}/NFeDistribuicaoDFe`, SEFAZ_TLS_CA: ca.caPem })).url);
      const { token: integrator } = await buildOperationsIntegrator(api);
      const registered = await api.post('/v1/assignors', { name: 'Padaria Central Ltda', type: 'J', cnpj: document, email: 'finance@padaria.example' }, { token: integrator });
      expect(registered.status, registered.text).to.equal(201);
      const disowned = async () => {
        const nfe = nfeOf(document);
        await setSandboxNfe(api, integrator, nfe.nfe_key, 'authorized', 'not_performed');
        return createDirect(api, integrator, directBody({ cnpj: document, receivables: [receivable({ external_id: 'NF-DISOWNED', ...nfe })] }));
      };

      const unheard = await disowned();
      expect(unheard.status, unheard.text).to.equal(201);

      const pfx = Buffer.from(pkcs12Of(ca.client, 'a1-password')).toString('base64');
      const put = await api.put(path(registered.body.id), { pfx, password: 'a1-password' }, { token: integrator });
      expect(put.status, put.text).to.equal(200);
      const heard = await disowned();
      expect(heard.status, heard.text).to.equal(422);
      expect(heard.body.detail).to.include({ code: 'nfe_disowned_by_payer', payer_event: 'not_performed', cstat: '138' });
    });
  });
});
