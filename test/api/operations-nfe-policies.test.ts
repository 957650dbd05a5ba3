import { expect } from 'chai';
import { Dec, Money } from '../../domain/money';
import { ProductsRepository, type Product } from '../../db/repositories/products';
import { ApiClient } from '../support/http';
import { cnpj, nfeOf } from '../support/documents';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { receivable } from '../support/simulate';
import { anotherApi, sharedWorker, testDb } from '../support/stack';
import { signAll, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { setSandboxNfe } from '../support/sefaz';
import { noPix } from '../support/payer-confirmation';
import { advanceClock, readyClock, untilReady } from '../support/test-clocks';
import { base64, NfeCa, nfeCa, procNfe } from '../support/nfe-xml';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The products' policies where SEFAZ cannot give its whole word: an NF-e beyond the consult's age
 * (cStat 526, `nfe_beyond_consult_age`), and an issuer whose certificate we do not hold, so that
 * SEFAZ will not show us its payer's events (the sandbox's `issuer_certificate: not_delegated`,
 * answered 593 as SEFAZ does). Over HTTP, through the production adapter reading the sandbox SEFAZ.
 */
describe('NF-e policies: beyond the consult\'s age, and payer events not available', function () {
  this.timeout(240_000);
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  let ca: NfeCa;

  before(async () => {
    await sharedWorker();
    ca = await nfeCa('Teste ICP politicas');
    client = new ApiClient((await anotherApi({ NFE_XML_TRUSTED_ROOTS: ca.rootPem })).url);
    ({ token, originatorId } = await buildOperationsIntegrator(client));
  });

  const product = async (policies: Partial<Pick<Product, 'nfeBeyondConsultAge' | 'payerConfirmation'>>) => (await new ProductsRepository(testDb(), originatorId).create({
    name: `NF-e policies ${JSON.stringify(policies)}`, description: null, minMonthlyRatePct: new Dec('1'), maxMonthlyRatePct: new Dec('10'), minTermDays: 1, maxTermDays: 365,
    minValueBrl: Money.of('1.00'), maxValueBrl: Money.of('1000000.00'), active: true, ...policies,
  })).id;

  /** A direct body of one receivable backed by a fresh NF-e of the assignor, with its signed XML when `withXml`. */
  const backed = (productId: string | null, withXml: boolean, extra: Record<string, unknown> = {}) => {
    const assignor = cnpj();
    const item = receivable({ external_id: 'NF-POLICY', ...nfeOf(assignor) });
    const key = item.nfe_key as string;
    const xml = procNfe({ key, issuer: assignor, recipient: item.payer_document as string, installments: [{ dueDate: item.due_date as string, value: '10000.00' }] }, ca.signer);
    const body = directBody({ cnpj: assignor, receivables: [withXml ? { ...item, nfe_xml: base64(xml) } : item], ...(productId ? { product_id: productId } : {}), ...extra });
    return { key, body };
  };
  const signed = async (body: Record<string, unknown>) => {
    const res = await createDirect(client, token, body);
    expect(res.status, res.text).to.equal(201);
    const id = res.body.id as string;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    await signAll(client, token, id);
    return id;
  };

  describe('nfe_beyond_consult_age (cStat 526)', () => {
    it('shows the policy on the product read, `refuse` by default', async () => {
      const [accepting, unset] = [await product({ nfeBeyondConsultAge: 'accept_with_xml' }), await product({})];
      const { body } = await client.get('/v1/products?limit=100', { token });
      const byId = new Map(body.items.map((p: { product_id: string }) => [p.product_id, p]));
      expect(byId.get(accepting)).to.include({ nfe_beyond_consult_age: 'accept_with_xml' });
      expect(byId.get(unset)).to.include({ nfe_beyond_consult_age: 'refuse' });
    });

    it('`refuse`: a key SEFAZ answers 526 ends the operation CANCELLED with nfe_too_old_to_check, no PIX, even with its XML', async () => {
      const { key, body } = backed(await product({}), true);
      await setSandboxNfe(client, token, key, 'too_old');
      const id = await signed(body);
      const read = await untilStatus(client, token, id, 'CANCELLED', 60_000);
      expect(read.cancellation_reason).to.equal('nfe_too_old_to_check');
      expect(read.titles[0].nfe_check).to.include({ status: 'refused', reason: 'nfe_too_old_to_check', cstat: '526' });
      await noPix(id);
    });

    it('`accept_with_xml`: the 526 passes when the receivable carried its verified XML, and the operation is paid', async () => {
      const { key, body } = backed(await product({ nfeBeyondConsultAge: 'accept_with_xml' }), true);
      await setSandboxNfe(client, token, key, 'too_old');
      const id = await signed(body);
      const paid = await untilStatus(client, token, id, 'PAID', 90_000);
      expect(paid.cancellation_reason).to.equal(null);
      expect(paid.titles[0].nfe_check).to.include({ status: 'passed', reason: null, cstat: '526', payer_events: 'read' });
    });

    it('`accept_with_xml`: without the XML the 526 is refused all the same', async () => {
      const { key, body } = backed(await product({ nfeBeyondConsultAge: 'accept_with_xml' }), false);
      await setSandboxNfe(client, token, key, 'too_old');
      const id = await signed(body);
      const read = await untilStatus(client, token, id, 'CANCELLED', 60_000);
      expect(read.cancellation_reason).to.equal('nfe_too_old_to_check');
      await noPix(id);
    });
  });

  describe('an issuer whose certificate we do not hold (distribution answered 593)', () => {
    it('`payer_confirmation: none`: passes on the consult alone, the check saying the payer\'s events were not available, and pays', async () => {
      const { key, body } = backed(await product({}), false);
      // Even a payer who disowned it is not seen: SEFAZ shows us nothing without the issuer's certificate.
      await setSandboxNfe(client, token, key, 'authorized', 'not_performed', 'not_delegated');
      const id = await signed(body);
      const paid = await untilStatus(client, token, id, 'PAID', 90_000);
      expect(paid.titles[0].nfe_check).to.include({ status: 'passed', cstat: '100', payer_event: null, payer_events: 'not_available' });
      expect(await testDb()('nfe_checks').where({ operation_id: id }).pluck('payer_events')).to.deep.equal(['not_available']);
    });

    it('`payer_confirmation: required`: waits as for a missing confirmation, then is cancelled with payer_confirmation_missing at the deadline, no PIX', async () => {
      const deadlineDays = 2;
      const frozenTime = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS).toISOString();
      const clock = await readyClock(client, token, frozenTime);
      const { key, body } = backed(await product({ payerConfirmation: { policy: 'required', deadlineDays } }), false, { test_clock_id: clock.id });
      await setSandboxNfe(client, token, key, 'authorized', null, 'not_delegated');
      const id = await signed(body);
      await eventually(async () => {
        const read = (await client.get(`/v1/operations/${id}`, { token })).body;
        expect(read.lifecycle_status).to.equal('SIGNED');
        expect(read.titles[0].nfe_check).to.include({ status: 'pending', reason: 'payer_confirmation_missing', cstat: '593', payer_events: 'not_available' });
      }, 60_000);
      await noPix(id);
      const advanced = await advanceClock(client, token, clock.id, new Date(Date.parse(clock.frozen_time) + (deadlineDays + 1) * DAY_MS).toISOString());
      expect(advanced.status, advanced.text).to.equal(200);
      await untilReady(client, token, clock.id);
      const read = await untilStatus(client, token, id, 'CANCELLED', 60_000);
      expect(read.cancellation_reason).to.equal('payer_confirmation_missing');
      await noPix(id);
    });
  });
});
