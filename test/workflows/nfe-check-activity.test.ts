import { expect } from 'chai';
import { ApplicationFailure } from '@temporalio/common';
import { createNfeCheckActivities, SEFAZ_NO_VERDICT } from '../../activities/nfe-check';
import { NfeChecksRepository } from '../../db/repositories/nfe-checks';
import { ProductsRepository } from '../../db/repositories/products';
import { Dec, Money } from '../../domain/money';
import { ApiClient } from '../support/http';
import { cnpj, nfeOf } from '../support/documents';
import { createDirect, directBody, startOperationsTest } from '../support/operations';
import { receivable } from '../support/simulate';
import { sharedSandbox, testConfig, testDb } from '../support/stack';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { AssignorNfeCertificatesRepository } from '../../db/repositories/assignor-nfe-certificates';
import { mutualTlsCa, mutualTlsFront, pkcs12Of } from '../support/mutual-tls';
import { FlakySefaz, sefazClientFor, setSandboxNfe } from '../support/sefaz';

/**
 * The check before the PIX as an activity, against real Postgres and the sandbox SEFAZ through the
 * production adapter: each NF-e (model 55) of the operation asked, each answer stored, a refusal
 * returned, no verdict thrown as a retryable failure.
 */
describe('the NF-e check before the PIX (activity)', function () {
  this.timeout(60_000);
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  let sefazUrl: string;
  before(async () => {
    ({ client, token, originatorId } = await startOperationsTest());
    sefazUrl = (await sharedSandbox()).sefazUrl;
  });
  afterEach(() => client.post('/v1/sandbox/sefaz/outage', { seconds: 0 }, { token }));

  const setNfe = (key: string, status: string, payerEvent: string | null = null) => setSandboxNfe(client, token, key, status, payerEvent);
  const activities = (url = sefazUrl, env: Record<string, string> = {}) =>
    createNfeCheckActivities({ db: testDb(), sefaz: sefazClientFor(url, { SEFAZ_KEY_REQUESTS_PER_HOUR: '100', ...env }), ring: new CipherRing(testConfig().payloadKeys) });

  /** An operation of three receivables: none backed by an NF-e, an NF-e (55), an NFC-e (65). */
  async function operation(extra: Record<string, unknown> = {}) {
    const assignor = cnpj();
    const nfe = nfeOf(assignor);
    const nfce = nfeOf(assignor, { model: '65' });
    const res = await createDirect(client, token, directBody({
      ...extra, cnpj: assignor, receivables: [receivable(), receivable({ external_id: 'NF-55', ...nfe }), receivable({ external_id: 'NFC-65', ...nfce })],
    }));
    expect(res.status, res.text).to.equal(201);
    // The NFC-e is never asked: were it, its cancellation would refuse.
    await setNfe(nfce.nfe_key, 'cancelled');
    return { operationId: res.body.id as string, key: nfe.nfe_key };
  }
  const latest = async (operationId: string) => [...(await new NfeChecksRepository(testDb()).latestOf(operationId)).values()];

  it('passes an authorized NF-e and stores the check (cStat, xMotivo, adapter, when) for it alone', async () => {
    const { operationId, key } = await operation();
    expect(await activities().checkNfesBeforePayout({ operationId })).to.deep.equal({ refusal: null });
    const checks = await latest(operationId);
    expect(checks).to.have.length(1);
    expect(checks[0]).to.include({ key, status: 'passed', reason: null, cStat: '100', adapter: 'sandbox', payerEvent: null });
    expect(checks[0].xMotivo).to.be.a('string').and.not.equal('');
    expect(checks[0].checkedAt).to.be.instanceOf(Date);
  });

  it('refuses a key cancelled after creation (nfe_cancelled), and one its payer disowned (nfe_disowned_by_payer); the latest check counts', async () => {
    const { operationId, key } = await operation();
    await setNfe(key, 'cancelled');
    expect((await activities().checkNfesBeforePayout({ operationId })).refusal).to.include({ reason: 'nfe_cancelled', externalId: 'NF-55', key, cStat: '101' });
    expect((await latest(operationId))[0]).to.include({ status: 'refused', reason: 'nfe_cancelled', cStat: '101' });

    await setNfe(key, 'authorized', 'not_performed');
    expect((await activities().checkNfesBeforePayout({ operationId })).refusal).to.include({ reason: 'nfe_disowned_by_payer', key, cStat: '138' });
    expect((await latest(operationId))[0]).to.include({ status: 'refused', reason: 'nfe_disowned_by_payer', payerEvent: 'not_performed' });

    await setNfe(key, 'authorized', 'confirmed');
    expect((await activities().checkNfesBeforePayout({ operationId })).refusal).to.equal(null);
    expect((await latest(operationId))[0]).to.include({ status: 'passed', payerEvent: 'confirmed' });
  });

  it('under a product requiring the payer\'s confirmation, a silent or merely aware payer is a wait (with the deadline), a confirmation passes, a disowning refuses', async () => {
    const product = await new ProductsRepository(testDb(), originatorId).create({
      name: 'Confirmed only', description: null, minMonthlyRatePct: new Dec('1'), maxMonthlyRatePct: new Dec('10'), minTermDays: 1, maxTermDays: 365,
      minValueBrl: Money.of('1.00'), maxValueBrl: Money.of('1000000.00'), active: true, payerConfirmation: { policy: 'required', deadlineDays: 7 },
    });
    const { operationId, key } = await operation({ product_id: product.id });
    for (const [word, cStat] of [[null, '137'], ['aware', '138']]) {
      await setNfe(key, 'authorized', word);
      expect(await activities().checkNfesBeforePayout({ operationId })).to.deep.equal({ refusal: null, awaitingPayer: { deadlineDays: 7 } });
      expect((await latest(operationId))[0]).to.include({ status: 'pending', reason: 'payer_confirmation_missing', cStat, payerEvent: null });
    }
    await setNfe(key, 'authorized', 'confirmed');
    expect(await activities().checkNfesBeforePayout({ operationId })).to.deep.equal({ refusal: null });
    expect((await latest(operationId))[0]).to.include({ status: 'passed', reason: null, payerEvent: 'confirmed' });
    await setNfe(key, 'authorized', 'unknown_operation');
    expect((await activities().checkNfesBeforePayout({ operationId })).refusal).to.include({ reason: 'nfe_disowned_by_payer', key });
  });

  for (const [name, denial] of [['denied', 'nfe_denied'], ['unknown', 'nfe_unknown']]) {
    it(`refuses a ${name} NF-e with ${denial}`, async () => {
      const { operationId, key } = await operation();
      await setNfe(key, name);
      expect((await activities().checkNfesBeforePayout({ operationId })).refusal).to.include({ reason: denial, key });
    });
  }

  it('SEFAZ paused (cStat 109) is no verdict: a retryable failure, the pending answer stored', async () => {
    const { operationId, key } = await operation();
    await setNfe(key, 'cancelled');
    await client.post('/v1/sandbox/sefaz/outage', { seconds: 120 }, { token });
    const failure = await activities().checkNfesBeforePayout({ operationId }).then(() => null, (err: unknown) => err);
    expect(failure).to.be.instanceOf(ApplicationFailure);
    expect(failure).to.include({ type: SEFAZ_NO_VERDICT, nonRetryable: false });
    expect((await latest(operationId))[0]).to.include({ status: 'pending', cStat: '109' });
  });

  it('SEFAZ unreachable (5xx on every attempt) is no verdict: a retryable failure, nothing stored', async () => {
    const { operationId } = await operation();
    const failing = await FlakySefaz.start(sefazUrl);
    failing.failures = 1_000;
    try {
      const failure = await activities(failing.url, { SEFAZ_ATTEMPTS: '1' }).checkNfesBeforePayout({ operationId }).then(() => null, (err: unknown) => err);
      expect(failure).to.include({ type: SEFAZ_NO_VERDICT, nonRetryable: false });
      expect(failing.requests).to.be.at.least(1);
      expect(await latest(operationId)).to.deep.equal([]);
    } finally {
      await failing.close();
    }
  });

  it('asks the distribution with the issuer\'s stored certificate: SEFAZ refusing the platform\'s, the check waits without it and passes with it', async () => {
    const { operationId, key } = await operation();
    const ca = await mutualTlsCa('SEFAZ distribution');
    const front = await mutualTlsFront(sefazUrl, ca);
    try {
      // The consult at the plain sandbox; the distribution behind mutual TLS that only the assignor's certificate passes (no platform certificate is configured).
      const behindTls = () => activities(sefazUrl, { SEFAZ_DISTRIBUTION_URL: `${front.url}/NFeDistribuicaoDFe`, SEFAZ_TLS_CA: ca.caPem, SEFAZ_ATTEMPTS: '1' });
      const without = await behindTls().checkNfesBeforePayout({ operationId }).then(() => null, (err: unknown) => err);
      expect(without).to.include({ type: SEFAZ_NO_VERDICT, nonRetryable: false });

      const { assignor_id: assignorId, originator_id: owner } = await testDb()('operations').where({ id: operationId }).first('assignor_id', 'originator_id');
      const ring = new CipherRing(testConfig().payloadKeys);
      const pfx = Buffer.from(pkcs12Of(ca.client, 'a1-password')).toString('base64');
      await new AssignorNfeCertificatesRepository(testDb(), owner).put({
        assignorId, sealedPfx: ring.sealText(pfx), sealedPassphrase: ring.sealText('a1-password'), subject: 'CN=test', serial: '01', notAfter: new Date(Date.now() + 86_400_000),
      }, new Date());
      expect(await behindTls().checkNfesBeforePayout({ operationId })).to.deep.equal({ refusal: null });
      expect((await latest(operationId))[0]).to.include({ key, status: 'passed', payerEvents: 'read' });
    } finally {
      await front.close();
    }
  });
});
