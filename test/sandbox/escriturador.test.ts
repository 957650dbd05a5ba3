import { expect } from 'chai';
import { ApplicationFailure } from '@temporalio/common';
import { createRegistrationActivities } from '../../activities/registration';
import { registrationSettings } from '../../domain/escriturador/negotiation';
import type { Duplicata } from '../../domain/escriturador/port';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyProviderSignature } from '../../domain/provider-signature';
import { SANDBOX_REGISTRAR_API_KEY } from '../../platform/config/config';
import { HttpEscriturador, readEscrituradorEvent } from '../../providers/escriturador/client';
import { EscrituradorSandboxControls } from '../../providers/escriturador/sandbox-controls';
import { RegistrarError } from '../../providers/provider-errors';
import { RunningSandbox, startSandbox } from '../../sandbox/server';
import { cnpj, nfeOf } from '../support/documents';
import { buildOriginator } from '../support/factories';
import { RegistrationSettingsRepository } from '../../db/repositories/registration-settings';
import { ApiClient } from '../support/http';
import { sandboxCallbackSecrets, testDb } from '../support/stack';
import { CallbackReceiver, rejectionOf, unique } from './support';

const WEBHOOK_SECRET = 'registrar-webhook-secret-for-tests';

/**
 * The escriturador's HTTP adapter against the sandbox escriturador, over HTTP: what each call
 * answers, the rules of negotiation it enforces, its outage, and its signed webhooks.
 */
describe('sandbox escriturador through the adapter', function () {
  this.timeout(30_000);
  let running: RunningSandbox;
  let escriturador: HttpEscriturador;
  let controls: EscrituradorSandboxControls;
  let receiver: CallbackReceiver;

  before(async () => {
    running = await startSandbox({
      port: 0, callbackRetryDelayMs: 50, logLevel: 'error', callbackSecrets: sandboxCallbackSecrets(),
      registrar: { apiKey: SANDBOX_REGISTRAR_API_KEY, webhookSecret: WEBHOOK_SECRET },
    });
    const settings = { url: running.escrituradorUrl, apiKey: SANDBOX_REGISTRAR_API_KEY, timeoutMs: 2_000 };
    escriturador = new HttpEscriturador(settings);
    controls = new EscrituradorSandboxControls(settings);
    receiver = await CallbackReceiver.start();
    await escriturador.setWebhook(receiver.url);
  });
  after(async () => {
    await receiver.close();
    await running.close();
  });
  afterEach(() => controls.outage(0));

  /** An NF-e issued by a fresh seller, and that seller's CNPJ. */
  function invoice() {
    const seller = cnpj();
    return { seller, nfeKey: nfeOf(seller).nfe_key };
  }

  async function onlyDuplicata(nfeKey: string): Promise<Duplicata> {
    const found = await escriturador.lookup(nfeKey);
    expect(found).to.have.length(1);
    return found[0];
  }

  const transfer = (duplicataId: string, from: string, to: string) => ({
    kind: 'transfer' as const, duplicataId, fromDocument: from, toDocument: to, negotiationType: 'aquisicao_com_regresso' as const,
  });

  it('issues one installment held by the seller on the first lookup, and answers the same duplicata after', async () => {
    const { seller, nfeKey } = invoice();
    const first = await onlyDuplicata(nfeKey);
    expect(first).to.deep.include({
      nfeKey, installment: '001', value: '1000.00', issuerDocument: seller, holderDocument: seller, liens: [], payerAcceptance: 'pending', paidAmount: '0.00', settled: false,
    });
    expect(await onlyDuplicata(nfeKey)).to.deep.equal(first);
  });

  it('answers an NF-e\'s several duplicatas by installment, each with its own id', async () => {
    const { nfeKey } = invoice();
    const sandbox = new ApiClient(running.escrituradorUrl);
    const issued = await sandbox.post('/sandbox/duplicatas', {
      chave_nfe: nfeKey,
      parcelas: [{ n_dup: '002', vencimento: '2027-01-15', valor: '600.00' }, { n_dup: '001', vencimento: '2026-12-15', valor: '400.00' }],
    }, { headers: { Authorization: `Bearer ${SANDBOX_REGISTRAR_API_KEY}` } });
    expect(issued.status, issued.text).to.equal(201);
    const found = await escriturador.lookup(nfeKey);
    expect(found.map((d) => [d.installment, d.dueDate, d.value])).to.deep.equal([['001', '2026-12-15', '400.00'], ['002', '2027-01-15', '600.00']]);
    expect(new Set(found.map((d) => d.duplicataId)).size).to.equal(2);
  });

  it('records a transfer once per idempotency key (refusing the key with another request): the holder moves, the act is registered with its negotiation type and time', async () => {
    const { seller, nfeKey } = invoice();
    const holder = cnpj();
    const duplicata = await onlyDuplicata(nfeKey);
    const key = unique('act');
    const first = await escriturador.negotiate(transfer(duplicata.duplicataId, seller, holder), key);
    const again = await escriturador.negotiate(transfer(duplicata.duplicataId, seller, holder), key);
    expect(first.outcome).to.equal('registered');
    expect(again).to.deep.equal(first);
    if (first.outcome !== 'registered') return;
    expect(first.act).to.include({ kind: 'transfer', negotiationType: 'aquisicao_com_regresso', fromDocument: seller, toDocument: holder, status: 'registered', cancelledAt: null });
    expect(Date.now() - Date.parse(first.act.registeredAt)).to.be.within(0, 60_000);
    const reused = await rejectionOf(escriturador.negotiate(transfer(duplicata.duplicataId, seller, cnpj()), key));
    expect(reused).to.include({ code: 'registrar_refused', providerStatus: 422, refusalCode: 'idempotency_key_reused' });
    const status = await escriturador.status(duplicata.duplicataId);
    expect(status.duplicata.holderDocument).to.equal(holder);
    expect(status.acts.map((act) => act.actId)).to.deep.equal([first.act.actId]);
  });

  it('refuses a transfer from a party that never held the duplicata (not_holder), and records nothing', async () => {
    const { seller, nfeKey } = invoice();
    const duplicata = await onlyDuplicata(nfeKey);
    const outcome = await escriturador.negotiate(transfer(duplicata.duplicataId, cnpj(), cnpj()), unique('act'));
    expect(outcome).to.deep.equal({ outcome: 'refused', reason: 'not_holder' });
    const status = await escriturador.status(duplicata.duplicataId);
    expect(status.duplicata.holderDocument).to.equal(seller);
    expect(status.acts).to.deep.equal([]);
  });

  it('refuses the seller\'s transfer once another financier acquired the duplicata (already_transferred), the same answer for the same key', async () => {
    const { seller, nfeKey } = invoice();
    const competitor = cnpj();
    const [away] = await controls.transferAway(nfeKey, competitor);
    expect(away.holderDocument).to.equal(competitor);
    const key = unique('act');
    const request = transfer(away.duplicataId, seller, cnpj());
    const refused = await escriturador.negotiate(request, key);
    expect(refused).to.deep.equal({ outcome: 'refused', reason: 'already_transferred' });
    expect(await escriturador.negotiate(request, key)).to.deep.equal(refused);
    expect((await escriturador.status(away.duplicataId)).duplicata.holderDocument).to.equal(competitor);
  });

  it('keeps liens in rank order, and closes the ranks up when an earlier lien is cancelled', async () => {
    const { seller, nfeKey } = invoice();
    const duplicata = await onlyDuplicata(nfeKey);
    const [bankA, bankB, bankC] = [cnpj(), cnpj(), cnpj()];
    const liens = [];
    for (const bank of [bankA, bankB, bankC]) {
      const outcome = await escriturador.negotiate({ kind: 'lien', duplicataId: duplicata.duplicataId, fromDocument: seller, toDocument: bank }, unique('lien'));
      if (outcome.outcome !== 'registered') throw new Error(`lien refused: ${outcome.reason}`);
      liens.push(outcome.act);
    }
    const ranked = (await escriturador.status(duplicata.duplicataId)).duplicata.liens;
    expect(ranked.map((lien) => [lien.rank, lien.beneficiaryDocument])).to.deep.equal([[1, bankA], [2, bankB], [3, bankC]]);
    await escriturador.cancelAct(liens[0].actId, unique('cancel'));
    const after = (await escriturador.status(duplicata.duplicataId)).duplicata.liens;
    expect(after.map((lien) => [lien.rank, lien.beneficiaryDocument])).to.deep.equal([[1, bankB], [2, bankC]]);
    expect(await escriturador.negotiate({ kind: 'lien', duplicataId: duplicata.duplicataId, fromDocument: bankA, toDocument: bankB }, unique('lien')))
      .to.deep.equal({ outcome: 'refused', reason: 'not_holder' });
  });

  it('cancels a transfer: the duplicata goes back to the seller; a second cancel answers it cancelled', async () => {
    const { seller, nfeKey } = invoice();
    const duplicata = await onlyDuplicata(nfeKey);
    const outcome = await escriturador.negotiate(transfer(duplicata.duplicataId, seller, cnpj()), unique('act'));
    if (outcome.outcome !== 'registered') throw new Error('transfer refused');
    const cancelled = await escriturador.cancelAct(outcome.act.actId, unique('cancel'));
    expect(cancelled).to.include({ actId: outcome.act.actId, status: 'cancelled' });
    expect(cancelled.cancelledAt).to.be.a('string');
    expect(await escriturador.cancelAct(outcome.act.actId, unique('cancel'))).to.deep.equal(cancelled);
    expect((await escriturador.status(duplicata.duplicataId)).duplicata.holderDocument).to.equal(seller);
  });

  it('refuses to cancel a transfer the acquirer has negotiated since (registrar_refused, not retryable)', async () => {
    const { seller, nfeKey } = invoice();
    const holder = cnpj();
    const duplicata = await onlyDuplicata(nfeKey);
    const outcome = await escriturador.negotiate(transfer(duplicata.duplicataId, seller, holder), unique('act'));
    if (outcome.outcome !== 'registered') throw new Error('transfer refused');
    await escriturador.negotiate(transfer(duplicata.duplicataId, holder, cnpj()), unique('act'));
    const err = await rejectionOf(escriturador.cancelAct(outcome.act.actId, unique('cancel')));
    expect(err).to.be.instanceOf(RegistrarError);
    expect(err).to.include({ code: 'registrar_refused', providerStatus: 409, refusalCode: 'act_superseded', retryable: false });
  });

  it('during an outage every call fails as registrar_unavailable (retryable), and works again when it ends', async () => {
    const { nfeKey } = invoice();
    const until = await controls.outage(60);
    expect(Date.parse(until) - Date.now()).to.be.within(1_000, 60_000);
    const err = await rejectionOf(escriturador.lookup(nfeKey));
    expect(err).to.be.instanceOf(RegistrarError);
    expect(err).to.include({ code: 'registrar_unavailable', providerStatus: null, retryable: true });
    await controls.outage(0);
    expect(await escriturador.lookup(nfeKey)).to.have.length(1);
  });

  it('refuses a caller without the account\'s API key', async () => {
    const stranger = new HttpEscriturador({ url: running.escrituradorUrl, apiKey: 'not-the-key', timeoutMs: 2_000 });
    const err = await rejectionOf(stranger.lookup(invoice().nfeKey));
    expect(err).to.include({ code: 'registrar_refused', providerStatus: 401, refusalCode: 'unauthorized' });
  });

  it('records a payment once per key and signs its settlement webhook with the escriturador\'s secret', async () => {
    const { seller, nfeKey } = invoice();
    const duplicata = await onlyDuplicata(nfeKey);
    const key = unique('payment');
    const paidAt = '2026-11-28T12:00:00.000Z';
    const partly = await escriturador.informPayment(duplicata.duplicataId, '400.00', paidAt, key);
    expect(await escriturador.informPayment(duplicata.duplicataId, '400.00', paidAt, key)).to.deep.equal(partly);
    expect(partly).to.include({ paidAmount: '400.00', settled: false });
    const full = await escriturador.informPayment(duplicata.duplicataId, '600.00', paidAt, unique('payment'));
    expect(full).to.include({ paidAmount: '1000.00', settled: true });

    const settled = await receiver.next((body) => body.evento === 'duplicata.settled' && body.duplicata_id === duplicata.duplicataId && body.liquidada === true);
    expect(readEscrituradorEvent(settled)).to.deep.include({
      type: 'duplicata.settled', duplicataId: duplicata.duplicataId, nfeKey, installment: '001', holderDocument: seller, amount: '600.00', paidAmount: '1000.00', settled: true, paidAt,
      origin: 'holder',
    });
    const delivery = receiver.deliveries.find((sent) => JSON.parse(sent.raw.toString('utf8')).id === settled.id)!;
    const signed = (secret: string) => verifyProviderSignature({
      secret, signature: delivery.headers[SIGNATURE_HEADER.toLowerCase()] as string, timestamp: delivery.headers[TIMESTAMP_HEADER.toLowerCase()] as string,
      body: delivery.raw, nowSeconds: Math.floor(Date.now() / 1000), toleranceSeconds: 300,
    });
    expect(signed(WEBHOOK_SECRET).ok).to.equal(true);
    expect(signed('another-secret')).to.deep.equal({ ok: false, code: 'callback_signature_invalid' });
    const payments = (await escriturador.status(duplicata.duplicataId)).duplicata;
    expect(payments.paidAmount).to.equal('1000.00');
  });

  it('records the payer paying the boleto dinâmico to the holder (a control) and says so in its settlement webhook', async () => {
    const { seller, nfeKey } = invoice();
    const duplicata = await onlyDuplicata(nfeKey);
    expect(await controls.payerPays(nfeKey, null, '250.00')).to.include({ duplicataId: duplicata.duplicataId, paidAmount: '250.00', settled: false });
    const paid = await controls.payerPays(nfeKey, '001', '750.00');
    expect(paid).to.include({ paidAmount: '1000.00', settled: true });
    const settled = await receiver.next((body) => body.evento === 'duplicata.settled' && body.duplicata_id === duplicata.duplicataId && body.liquidada === true);
    expect(readEscrituradorEvent(settled)).to.deep.include({ type: 'duplicata.settled', holderDocument: seller, amount: '750.00', paidAmount: '1000.00', origin: 'payer' });
    expect(await rejectionOf(controls.payerPays(nfeKey, '001', '1.00'))).to.include({ providerStatus: 409, refusalCode: 'duplicata_settled' });
    expect(await rejectionOf(controls.payerPays(nfeKey, null, '1.00'))).to.include({ providerStatus: 404, refusalCode: 'duplicata_not_found' });
  });

  it('sends a signed webhook for each act registered and cancelled', async () => {
    const { seller, nfeKey } = invoice();
    const duplicata = await onlyDuplicata(nfeKey);
    const outcome = await escriturador.negotiate(transfer(duplicata.duplicataId, seller, cnpj()), unique('act'));
    if (outcome.outcome !== 'registered') throw new Error('transfer refused');
    await escriturador.cancelAct(outcome.act.actId, unique('cancel'));
    for (const type of ['act.registered', 'act.cancelled']) {
      const body = await receiver.next((sent: { evento?: string; ato?: { id?: string } }) => sent.evento === type && sent.ato?.id === outcome.act.actId);
      expect(readEscrituradorEvent(body)).to.deep.include({ type });
    }
  });
});

describe('registration activities against the sandbox escriturador', function () {
  this.timeout(30_000);
  let running: RunningSandbox;
  let activities: ReturnType<typeof createRegistrationActivities>;
  let controls: EscrituradorSandboxControls;

  before(async () => {
    running = await startSandbox({ port: 0, logLevel: 'error', callbackSecrets: sandboxCallbackSecrets() });
    const settings = { url: running.escrituradorUrl, apiKey: SANDBOX_REGISTRAR_API_KEY, timeoutMs: 2_000 };
    activities = createRegistrationActivities({ db: testDb(), escriturador: new HttpEscriturador(settings) });
    controls = new EscrituradorSandboxControls(settings);
  });
  after(() => running.close());

  it('reads an originator\'s registration settings, none for an originator without them', async () => {
    const [configured, bare] = [await buildOriginator(), await buildOriginator()];
    const saved = registrationSettings({ registrar: 'sandbox', holderDocument: cnpj(), negotiationType: 'desconto' });
    await new RegistrationSettingsRepository(testDb()).save(configured, saved, new Date());
    expect(await activities.registrationSettingsOf({ originatorId: configured })).to.deep.equal(saved);
    expect(await activities.registrationSettingsOf({ originatorId: bare })).to.equal(null);
  });

  it('registers a title\'s act once however often the activity runs, and cancels it once', async () => {
    const seller = cnpj();
    const { nfe_key: nfeKey } = nfeOf(seller);
    const originatorId = await buildOriginator();
    await new RegistrationSettingsRepository(testDb()).save(originatorId, registrationSettings({ registrar: 'sandbox', holderDocument: cnpj() }), new Date());
    const settings = (await activities.registrationSettingsOf({ originatorId }))!;
    expect(settings.negotiationType).to.equal('aquisicao_com_regresso');
    const [duplicata] = await activities.lookupDuplicatas({ nfeKey });
    const input = { titleId: unique('title'), duplicataId: duplicata.duplicataId, assignorDocument: seller, settings };
    const first = await activities.registerTitleAct(input);
    expect(await activities.registerTitleAct(input)).to.deep.equal(first);
    if (first.outcome !== 'registered') throw new Error('act refused');
    expect(first.act).to.include({ toDocument: settings.holderDocument, negotiationType: 'aquisicao_com_regresso' });
    await activities.cancelAct({ actId: first.act.actId });
    await activities.cancelAct({ actId: first.act.actId });
    const { duplicata: after, acts } = await activities.duplicataStatus({ duplicataId: duplicata.duplicataId });
    expect(after.holderDocument).to.equal(seller);
    expect(acts.map((act) => act.status)).to.deep.equal(['cancelled']);
  });

  it('informs a payment once per title and payment', async () => {
    const seller = cnpj();
    const [duplicata] = await activities.lookupDuplicatas({ nfeKey: nfeOf(seller).nfe_key });
    const input = { titleId: unique('title'), paymentId: unique('payment'), duplicataId: duplicata.duplicataId, amount: '250.00', paidAt: new Date().toISOString() };
    await activities.informTitlePayment(input);
    expect(await activities.informTitlePayment(input)).to.include({ paidAmount: '250.00' });
  });

  it('fails retryably during an outage and not retryably on a refusal', async () => {
    await controls.outage(30);
    const outage = await rejectionOf(activities.lookupDuplicatas({ nfeKey: nfeOf(cnpj()).nfe_key }));
    await controls.outage(0);
    expect(outage).to.be.instanceOf(ApplicationFailure);
    expect(outage).to.include({ type: 'registrar_unavailable', nonRetryable: false });
    const refused = await rejectionOf(activities.duplicataStatus({ duplicataId: 'no-such-duplicata' }));
    expect(refused).to.include({ type: 'registrar_refused', nonRetryable: true });
  });
});
