import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox, RunningSandbox } from '../../sandbox/server';
import { SANDBOX_DEFAULTS } from '../../sandbox/config';
import { SefazSandboxControls } from '../../providers/sefaz/sandbox-controls';
import { SefazError } from '../../providers/provider-errors';
import { consSitNFe, consultEnvelope, distDFeInt, distributionEnvelope } from '../../providers/sefaz/messages';
import { CONSULT_SERVICE, DISTRIBUTION_SERVICE } from '../../domain/sefaz/wire';
import { isDisowning, latestConclusive } from '../../domain/sefaz/payer-events';
import { soapContentType } from '../../platform/xml/soap';
import { xsdErrors } from '../support/sefaz-xsd';
import { elementIn, FlakySefaz, freshNfeKey, sefazClientFor } from '../support/sefaz';
import { MutualTlsCa, mutualTlsCa, MutualTlsFront, mutualTlsFront, pkcs12Of } from '../support/mutual-tls';

const ISSUER = { document: '11222333000181', certificate: null };
const PAYER_EVENTS = ['confirmed', 'aware', 'unknown_operation', 'not_performed'] as const;

/**
 * The SEFAZ port: the production adapter's requests and the sandbox's answers in the
 * official layouts (checked against the published XSDs), and the adapter reading the sandbox as
 * it reads SEFAZ, through failures, mutual TLS and the per-key limit.
 */
describe('SEFAZ: the adapter and the sandbox service', function () {
  this.timeout(30_000);
  let sandbox: RunningSandbox;
  let controls: SefazSandboxControls;

  before(async () => {
    sandbox = await startSandbox({ port: 0, logLevel: 'error', callbackSecrets: { esign: 'esign-secret-for-tests-only', pix: 'pix-secret-for-tests-only' }, collection: { ...SANDBOX_DEFAULTS.collection, webhookSecret: null } });
    controls = new SefazSandboxControls(sandbox.sefazUrl, 5_000);
  });

  after(async () => {
    await controls.outage(0);
    await sandbox.close();
  });

  /** The raw SOAP answer, as the adapter receives it. */
  const ask = async (service: 'NFeConsultaProtocolo4' | 'NFeDistribuicaoDFe', key: string) => {
    const [envelope, action] = service === 'NFeConsultaProtocolo4'
      ? [consultEnvelope(key, '2'), CONSULT_SERVICE.action] : [distributionEnvelope(key, '2', ISSUER.document), DISTRIBUTION_SERVICE.action];
    const res = await fetch(`${sandbox.sefazUrl}/${service}`, { method: 'POST', headers: { 'Content-Type': soapContentType(action) }, body: envelope });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/soap\+xml/);
    return res.text();
  };

  describe('the messages, against the published XSDs', () => {
    it('the adapter\'s consSitNFe 4.00 and distDFeInt 1.01 (consChNFe, by CNPJ and by CPF) are valid', async () => {
      const key = freshNfeKey();
      expect(await xsdErrors('consSitNFe_v4.00.xsd', consSitNFe(key, '1'))).to.deep.equal([]);
      expect(await xsdErrors('distDFeInt_v1.01.xsd', distDFeInt(key, '2', '11222333000181'))).to.deep.equal([]);
      expect(await xsdErrors('distDFeInt_v1.01.xsd', distDFeInt(key, '2', '52998224725'))).to.deep.equal([]);
    });

    it('and the validation is real: a wrong tpAmb or a missing element is reported', async () => {
      const broken = consSitNFe(freshNfeKey(), '2').replace('<tpAmb>2</tpAmb>', '<tpAmb>3</tpAmb>').replace('<xServ>CONSULTAR</xServ>', '');
      const errors = await xsdErrors('consSitNFe_v4.00.xsd', broken);
      expect(errors.join('\n')).to.match(/tpAmb.*not an element of the set/).and.to.match(/Expected is \( \{http:\/\/www.portalfiscal.inf.br\/nfe\}xServ \)/);
    });

    for (const status of ['authorized', 'cancelled', 'denied', 'unknown', 'too_old'] as const) {
      it(`the sandbox's retConsSitNFe for a ${status} key is valid`, async () => {
        const key = freshNfeKey();
        await controls.setKey(key, status, null);
        expect(await xsdErrors('retConsSitNFe_v4.00.xsd', elementIn(await ask('NFeConsultaProtocolo4', key), 'retConsSitNFe'))).to.deep.equal([]);
      });
    }

    for (const event of PAYER_EVENTS) {
      it(`the sandbox's retDistDFeInt with a payer's ${event} is valid, and so is the procEventoNFe in its docZip`, async () => {
        const key = freshNfeKey();
        await controls.setKey(key, 'authorized', event);
        const ret = elementIn(await ask('NFeDistribuicaoDFe', key), 'retDistDFeInt');
        expect(await xsdErrors('retDistDFeInt_v1.01.xsd', ret)).to.deep.equal([]);
        const docZip = /<docZip NSU="\d+" schema="procEventoNFe_v1.00.xsd">([^<]+)<\/docZip>/.exec(ret)!;
        expect(await xsdErrors('procEventoNFe_v1.00.xsd', gunzipSync(Buffer.from(docZip[1], 'base64')).toString('utf8'))).to.deep.equal([]);
      });
    }

    it('the answers while SEFAZ is paused (cStat 109), and a distribution without documents (137), are valid', async () => {
      const key = freshNfeKey();
      expect(await xsdErrors('retDistDFeInt_v1.01.xsd', elementIn(await ask('NFeDistribuicaoDFe', key), 'retDistDFeInt'))).to.deep.equal([]);
      await controls.outage(60);
      try {
        const consult = elementIn(await ask('NFeConsultaProtocolo4', key), 'retConsSitNFe');
        expect(consult).to.include('<cStat>109</cStat>');
        expect(await xsdErrors('retConsSitNFe_v4.00.xsd', consult)).to.deep.equal([]);
        expect(await xsdErrors('retDistDFeInt_v1.01.xsd', elementIn(await ask('NFeDistribuicaoDFe', key), 'retDistDFeInt'))).to.deep.equal([]);
      } finally {
        await controls.outage(0);
      }
    });
  });

  describe('the adapter reading the sandbox', () => {
    it('a key never set is authorized (100) with its authorization time and digest, and no payer event (137)', async () => {
      const sefaz = sefazClientFor(sandbox.sefazUrl);
      const key = freshNfeKey();
      const status = await sefaz.consultStatus(key);
      expect(status).to.include({ key, cStat: '100', outcome: 'authorized', cached: false });
      expect(status.authorizedAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/);
      expect(status.digestValue).to.match(/^[A-Za-z0-9+/]{27}=$/);
      expect(await sefaz.payerEvents(key, ISSUER)).to.deep.include({ cStat: '137', outcome: 'none', events: [] });
    });

    it('reads a cancellation (101 with the event 110111), a denial (110) and a key SEFAZ does not know (217)', async () => {
      const sefaz = sefazClientFor(sandbox.sefazUrl);
      const [cancelled, denied, unknown] = [freshNfeKey(), freshNfeKey(), freshNfeKey()];
      await controls.setKey(cancelled, 'cancelled', null);
      await controls.setKey(denied, 'denied', null);
      await controls.setKey(unknown, 'unknown', null);
      expect(await sefaz.consultStatus(cancelled)).to.deep.include({ cStat: '101', outcome: 'cancelled', eventTypes: ['110111'] });
      expect(await sefaz.consultStatus(denied)).to.include({ cStat: '110', outcome: 'denied', reason: 'Uso Denegado' });
      expect(await sefaz.consultStatus(unknown)).to.include({ cStat: '217', outcome: 'unknown', authorizedAt: null });
    });

    it('reads a key beyond the consult\'s age (526) as too_old, with no protocol: the product\'s policy decides', async () => {
      const sefaz = sefazClientFor(sandbox.sefazUrl);
      const key = freshNfeKey();
      await controls.setKey(key, 'too_old', null);
      expect(await sefaz.consultStatus(key)).to.include({ cStat: '526', outcome: 'too_old', authorizedAt: null, digestValue: null });
    });

    it('an issuer that did not delegate its certificate: the distribution answers 593 (valid against the XSD), read as not_available, and shows no payer event', async () => {
      const sefaz = sefazClientFor(sandbox.sefazUrl);
      const key = freshNfeKey();
      await controls.setKey(key, 'authorized', 'not_performed', 'not_delegated');
      expect(await xsdErrors('retDistDFeInt_v1.01.xsd', elementIn(await ask('NFeDistribuicaoDFe', key), 'retDistDFeInt'))).to.deep.equal([]);
      expect(await sefaz.payerEvents(key, ISSUER)).to.deep.include({ cStat: '593', outcome: 'not_available', events: [] });
      // Delegated again (the default of every control), the payer's word shows.
      await controls.setKey(key, 'authorized', 'not_performed');
      expect(await sefaz.payerEvents(key, ISSUER)).to.include({ cStat: '138', outcome: 'found' });
    });

    it('reads the payer\'s manifestação from the docZip, and a later word replaces an earlier one', async () => {
      const sefaz = sefazClientFor(sandbox.sefazUrl);
      const key = freshNfeKey();
      await controls.setKey(key, 'authorized', 'not_performed');
      const disowned = await sefaz.payerEvents(key, ISSUER);
      expect(disowned).to.include({ cStat: '138', outcome: 'found' });
      expect(disowned.events.map((seen) => [seen.event, seen.cStat])).to.deep.equal([['not_performed', '135']]);
      const authorizedAt = (await sefaz.consultStatus(key)).authorizedAt;
      expect(isDisowning(latestConclusive(disowned.events, authorizedAt))).to.equal(true);
      await controls.setKey(key, 'authorized', 'confirmed');
      expect(latestConclusive((await sefaz.payerEvents(key, ISSUER)).events, authorizedAt)).to.include({ event: 'confirmed' });
    });

    it('during an outage both services answer 109, read as an outage (wait), never as a refusal; afterwards the key is authorized again', async () => {
      const sefaz = sefazClientFor(sandbox.sefazUrl);
      const key = freshNfeKey();
      await controls.outage(60);
      try {
        expect(await sefaz.consultStatus(key)).to.include({ cStat: '109', outcome: 'outage' });
        expect(await sefaz.payerEvents(key, ISSUER)).to.include({ cStat: '109', outcome: 'outage' });
      } finally {
        await controls.outage(0);
      }
      expect(await sefaz.consultStatus(key)).to.include({ cStat: '100', outcome: 'authorized' });
    });

    it('the controls refuse a malformed key and values outside the lists', async () => {
      const refused = async (call: Promise<unknown>) => {
        try {
          await call;
        } catch (err) {
          return (err as SefazError).providerStatus;
        }
        throw new Error('accepted');
      };
      expect(await refused(controls.setKey('123', 'cancelled', null))).to.equal(422);
      expect(await refused(controls.setKey(freshNfeKey(), 'lost' as never, null))).to.equal(400);
      expect(await refused(controls.setKey(freshNfeKey(), 'authorized', 'maybe' as never))).to.equal(400);
      expect(await refused(controls.outage(-1))).to.equal(422);
    });
  });

  it('keeps each key\'s answers and an outage across a restart, in its state file', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'sefaz-state-'));
    const options = { port: 0, logLevel: 'error', stateFile: path.join(folder, 'state.json'), callbackSecrets: { esign: 'esign-secret-for-tests-only', pix: 'pix-secret-for-tests-only' }, collection: { ...SANDBOX_DEFAULTS.collection, webhookSecret: null } };
    const key = freshNfeKey();
    try {
      let kept = await startSandbox(options);
      await new SefazSandboxControls(kept.sefazUrl, 5_000).setKey(key, 'cancelled', 'not_performed');
      const authorizedAt = (await sefazClientFor(kept.sefazUrl).consultStatus(key)).authorizedAt;
      await kept.close();
      kept = await startSandbox(options);
      const sefaz = sefazClientFor(kept.sefazUrl);
      expect(await sefaz.consultStatus(key)).to.include({ outcome: 'cancelled', authorizedAt });
      expect((await sefaz.payerEvents(key, ISSUER)).events.map((seen) => seen.event)).to.deep.equal(['not_performed']);
      await new SefazSandboxControls(kept.sefazUrl, 5_000).outage(60);
      await kept.close();
      kept = await startSandbox(options);
      expect(await sefazClientFor(kept.sefazUrl).consultStatus(freshNfeKey())).to.include({ outcome: 'outage' });
      await kept.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  describe('the adapter when SEFAZ fails', () => {
    let flaky: FlakySefaz;

    beforeEach(async () => {
      flaky = await FlakySefaz.start(sandbox.sefazUrl);
    });

    afterEach(() => flaky.close());

    it('tries again with backoff after a 503 or no answer, and gives up with sefaz_unavailable after its attempts', async () => {
      flaky.failures = 2;
      const key = freshNfeKey();
      expect(await sefazClientFor(flaky.url, { SEFAZ_ATTEMPTS: '3' }).consultStatus(key)).to.include({ outcome: 'authorized' });
      expect(flaky.requests).to.equal(3);
      flaky.failures = 5;
      flaky.requests = 0;
      const err = await sefazClientFor(flaky.url, { SEFAZ_ATTEMPTS: '2' }).consultStatus(freshNfeKey()).then(() => null, (e: unknown) => e as SefazError);
      expect(err).to.be.instanceOf(SefazError);
      expect(err!.message).to.match(/^sefaz_unavailable: .*NFeConsultaProtocolo4 answered 503$/);
      expect(err!.retryable).to.equal(true);
      expect(flaky.requests).to.equal(2);
    });

    it('does not repeat a request SEFAZ refused (4xx)', async () => {
      flaky.failures = 1;
      flaky.status = 404;
      const err = await sefazClientFor(flaky.url, { SEFAZ_ATTEMPTS: '3' }).consultStatus(freshNfeKey()).then(() => null, (e: unknown) => e as SefazError);
      expect(err!.retryable).to.equal(false);
      expect(flaky.requests).to.equal(1);
    });

    it('asks about one key at most SEFAZ_KEY_REQUESTS_PER_HOUR times; past it the last answer comes back, marked cached, and SEFAZ is not asked', async () => {
      const sefaz = sefazClientFor(flaky.url, { SEFAZ_KEY_REQUESTS_PER_HOUR: '2' });
      const key = freshNfeKey();
      await sefaz.consultStatus(key);
      await controls.setKey(key, 'cancelled', null);
      expect(await sefaz.consultStatus(key)).to.include({ outcome: 'cancelled', cached: false });
      expect(await sefaz.consultStatus(key)).to.include({ outcome: 'cancelled', cached: true });
      expect(flaky.requests).to.equal(2);
      expect(await sefaz.consultStatus(freshNfeKey())).to.include({ cached: false });
    });
  });

  describe('mutual TLS, as SEFAZ requires', () => {
    let front: MutualTlsFront;
    let ca: MutualTlsCa;
    let stranger: MutualTlsCa;

    before(async () => {
      [ca, stranger] = await Promise.all([mutualTlsCa('SEFAZ'), mutualTlsCa('Stranger')]);
      front = await mutualTlsFront(sandbox.sefazUrl, ca);
    });

    after(() => front.close());

    it('presents the platform certificate of SEFAZ_TLS_CERT / _KEY and trusts SEFAZ_TLS_CA', async () => {
      const sefaz = sefazClientFor(front.url, { SEFAZ_TLS_CERT: ca.client.certPem, SEFAZ_TLS_KEY: ca.client.keyPem, SEFAZ_TLS_CA: ca.caPem });
      const key = freshNfeKey();
      expect(await sefaz.consultStatus(key)).to.include({ outcome: 'authorized' });
      expect(await sefaz.payerEvents(key, ISSUER)).to.include({ outcome: 'none' });
    });

    it('the distribution presents the party\'s delegated certificate (PKCS#12 and its password), not the platform\'s', async () => {
      const sefaz = sefazClientFor(front.url, { SEFAZ_TLS_CERT: stranger.client.certPem, SEFAZ_TLS_KEY: stranger.client.keyPem, SEFAZ_TLS_CA: ca.caPem, SEFAZ_ATTEMPTS: '1' });
      const key = freshNfeKey();
      const delegated = { document: ISSUER.document, certificate: { pfx: pkcs12Of(ca.client, 'a1-password'), passphrase: 'a1-password' } };
      expect(await sefaz.payerEvents(key, delegated)).to.include({ outcome: 'none' });
      const err = await sefaz.payerEvents(freshNfeKey(), ISSUER).then(() => null, (e: unknown) => e as SefazError);
      expect(err).to.be.instanceOf(SefazError);
    });

    it('a certificate SEFAZ\'s CA did not issue fails as sefaz_unavailable, pointing at the client certificate', async () => {
      const sefaz = sefazClientFor(front.url, { SEFAZ_TLS_CERT: stranger.client.certPem, SEFAZ_TLS_KEY: stranger.client.keyPem, SEFAZ_TLS_CA: ca.caPem, SEFAZ_ATTEMPTS: '1' });
      const err = await sefaz.consultStatus(freshNfeKey()).then(() => null, (e: unknown) => e as SefazError);
      expect(err).to.be.instanceOf(SefazError);
      expect(err!.message).to.match(/connection closed without an answer .*check the client certificate and key configured for it$/);
    });
  });
});
