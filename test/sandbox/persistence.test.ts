import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HttpEsignProvider } from '../../providers/esign-client';
import { HttpPixProvider, PixRecipient } from '../../providers/pix-client';
import { startSandbox, RunningSandbox } from '../../sandbox/server';
import { ApiClient } from '../support/http';
import { rejectionOf, signThroughPage, unique } from './support';
import { randomUUID } from 'node:crypto';
import { sandboxCallbackSecrets } from '../support/stack';
import { ApiPixClient } from '../../providers/api-pix-client';
import { PayoutPspSandbox } from '../../providers/psp-account-lines';
import { CollectionPspStatements, PayoutPspStatements } from '../../providers/psp-statements';
import { SANDBOX_COLLECTION_CLIENT, SANDBOX_REGISTRAR_API_KEY } from '../../platform/config/config';
import { HttpEscriturador } from '../../providers/escriturador/client';
import { cnpj, nfeOf } from '../support/documents';

const recipient = (email: string): PixRecipient => ({
  name: 'Assignor Ltda', document: '11222333000181', email, destination: { kind: 'pix_key', key: '11222333000181' },
});

describe('sandbox providers with a state file', () => {
  let folder: string;
  let running: RunningSandbox | undefined;
  const start = () => startSandbox({ port: 0, settlementDelayMs: 0, slowSettlementDelayMs: 1_500, logLevel: 'error', stateFile: path.join(folder, 'state.json'), callbackSecrets: sandboxCallbackSecrets() });

  beforeEach(() => { folder = mkdtempSync(path.join(tmpdir(), 'sandbox-state-')); });
  afterEach(async () => {
    await running?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('remembers documents, signers, e-mails, payments, idempotency keys and magic counters after a restart', async () => {
    running = await start();
    let esign = new HttpEsignProvider(running.esignUrl, 5_000);
    let pix = new HttpPixProvider(running.pixUrl, 5_000);
    const createKey = unique('create');
    const document = { type: 'FULL_CONTRACT' as const, embedded: false, assignorEmail: `${unique('assignor')}@example.com`, reference: unique('contract'), callbackUrl: null, idempotencyKey: createKey };
    const created = await esign.createDocument(document);
    const [ana, bruno] = await esign.addSigners(created.documentId, [
      { name: 'Ana Assignor', email: `${unique('ana')}@example.com` },
      { name: 'Bruno Witness', email: `${unique('bruno')}@example.com` },
    ], unique('signers'));
    const firstRead = await esign.getDocument(created.documentId);
    expect((await signThroughPage(firstRead.signers[0].signUrl!)).status).to.equal(200);
    const paidKey = unique('op-pix');
    const paid = await pix.createPayment(paidKey, '10.00', recipient(`${unique('payee')}@example.com`), null);
    const slowKey = unique('op-pix');
    const slow = await pix.createPayment(slowKey, '20.00', recipient(`pix-slow+${unique('t')}@example.com`), null);
    const rejectOnce = `pix-reject-once+${unique('t')}@example.com`;
    const rejected = await pix.createPayment(unique('op-pix'), '30.00', recipient(rejectOnce), null);
    await running.close();

    // A fresh port: nothing from before the restart (pooled connections) can answer for it.
    running = await start();
    esign = new HttpEsignProvider(running.esignUrl, 5_000);
    pix = new HttpPixProvider(running.pixUrl, 5_000);
    const again = await esign.getDocument(created.documentId);
    expect(again.documentStatus).to.equal('running');
    expect(again.signers.map((s) => [s.signerId, s.status])).to.deep.equal([[ana.signerId, 'signed'], [bruno.signerId, 'pending']]);
    const mails = (await new ApiClient(running.esignUrl).get(`/mailbox?document_id=${created.documentId}`)).body.messages;
    expect(mails.map((m: { signer_id: string }) => m.signer_id)).to.deep.equal([ana.signerId, bruno.signerId]);
    // The second signer's link from before the restart still signs, and closes the document.
    expect((await signThroughPage(again.signers[1].signUrl!)).status).to.equal(200);
    expect((await esign.getDocument(created.documentId)).documentStatus).to.equal('closed');
    expect((await esign.createDocument(document)).documentId, 'a replayed create finds the same document').to.equal(created.documentId);

    expect(await pix.getPayment(paid.paymentId)).to.include({ status: 'SETTLED', settledAmount: '10.00' });
    expect((await pix.createPayment(paidKey, '10.00', recipient('x@example.com'), null)).paymentId).to.equal(paid.paymentId);
    expect((await pix.getPayment(rejected.paymentId)).status).to.equal('REJECTED');
    const secondTry = await pix.createPayment(unique('op-pix'), '30.00', recipient(rejectOnce), null);
    // A settlement pending at the restart still happens; the -once magic value was used up before it.
    for (const payment of [slow, secondTry]) {
      let status = 'PENDING';
      for (let i = 0; i < 50 && status === 'PENDING'; i += 1) {
        status = (await pix.getPayment(payment.paymentId)).status;
        if (status === 'PENDING') await new Promise((r) => setTimeout(r, 100));
      }
      expect(status, payment.idempotencyKey).to.equal('SETTLED');
    }
  });

  it('without a state file a restart starts empty', async () => {
    running = await startSandbox({ port: 0, logLevel: 'error', callbackSecrets: sandboxCallbackSecrets() });
    const esign = new HttpEsignProvider(running.esignUrl, 5_000);
    const created = await esign.createDocument({ type: 'FULL_CONTRACT', embedded: false, assignorEmail: 'a@example.com', reference: unique('contract'), callbackUrl: null, idempotencyKey: unique('create') });
    await running.close();
    running = await startSandbox({ port: 0, logLevel: 'error', callbackSecrets: sandboxCallbackSecrets() });
    const read = await new ApiClient(running.esignUrl).get(`/documents/${created.documentId}`);
    expect(read.status).to.equal(404);
  });

  it('keeps the collection PSP\'s charges, PIX received and refunds, and both PSPs\' top-ups, sweeps and fees, across a restart', async () => {
    running = await start();
    const clientOf = (sandbox: RunningSandbox) =>
      new ApiPixClient({ apiUrl: sandbox.apiPixUrl, tokenUrl: sandbox.apiPixUrl.replace(/\/v2$/, '/oauth/token'), ...SANDBOX_COLLECTION_CLIENT, timeoutMs: 5_000 });
    let psp = clientOf(running);
    const txid = randomUUID().replace(/-/g, '');
    await psp.setWebhook('cobranca@example.com', 'http://127.0.0.1:9/hooks');
    await psp.putCharge({
      txid, dueDate: '2030-01-15', validAfterDueDays: 3, debtor: { document: '11222333000181', name: 'Pagador Ltda' }, amount: '300.00',
      finePct: '2.00', interestMonthlyPct: '1.00', pixKey: 'cobranca@example.com',
    });
    const pix = await psp.simulatePayment(txid, '350.00', 'lost');
    await psp.refund(pix.endToEndId, 'R1', '50.00');
    const topUp = await psp.addAccountLine('top_up', '40.00', 'sub-1');
    const fee = await new PayoutPspSandbox(running.pixUrl, 5_000).addAccountLine('fee', '1.25', 'sub-2');
    await running.close();

    running = await start();
    psp = clientOf(running);
    expect(await psp.getCharge(txid)).to.include({ status: 'CONCLUIDA', amount: '300.00' });
    const received = await psp.receivedBetween(new Date(Date.now() - 60_000), new Date());
    expect(received.map((p) => p.endToEndId)).to.include(pix.endToEndId);
    expect(await psp.refund(pix.endToEndId, 'R1', '50.00')).to.deep.equal({ id: 'R1', amount: '50.00' });
    expect(await rejectionOf(psp.refund(pix.endToEndId, 'R2', '301.00'))).to.include({ code: 'pix_collection_refused' });

    const [from, to] = [new Date(Date.now() - 60_000), new Date(Date.now() + 60_000)];
    const collected = await new CollectionPspStatements(psp).statement(from, to);
    expect(collected.lines.find((line) => line.reference === topUp.id)).to.deep.include({ direction: 'in', funding: { kind: 'top_up', subAccount: 'sub-1' } });
    expect(collected.closingBalance.toString(), '350.00 in, 50.00 refunded, 40.00 topped up').to.equal('340.00');
    const paidOut = await new PayoutPspStatements(running.pixUrl, 5_000).statement(from, to);
    expect(paidOut.lines.map((line) => [line.reference, line.direction, line.amount.toString(), line.funding])).to.deep.equal([[fee.id, 'out', '1.25', { kind: 'fee', subAccount: 'sub-2' }]]);
    expect(paidOut.closingBalance.toString()).to.equal('-1.25');
  });

  it('keeps the escriturador\'s duplicatas, holders, acts and idempotency keys across a restart', async () => {
    running = await start();
    const escriturador = (sandbox: RunningSandbox) => new HttpEscriturador({ url: sandbox.escrituradorUrl, apiKey: SANDBOX_REGISTRAR_API_KEY, timeoutMs: 5_000 });
    const seller = cnpj();
    const holder = cnpj();
    const { nfe_key: nfeKey } = nfeOf(seller);
    const [duplicata] = await escriturador(running).lookup(nfeKey);
    const request = { kind: 'transfer' as const, duplicataId: duplicata.duplicataId, fromDocument: seller, toDocument: holder, negotiationType: 'aquisicao' as const };
    const key = unique('act');
    const registered = await escriturador(running).negotiate(request, key);
    await running.close();

    running = await start();
    const after = escriturador(running);
    expect((await after.lookup(nfeKey)).map((d) => [d.duplicataId, d.holderDocument])).to.deep.equal([[duplicata.duplicataId, holder]]);
    expect(await after.negotiate(request, key)).to.deep.equal(registered);
    expect((await after.status(duplicata.duplicataId)).acts).to.have.length(1);
  });
});
