import { expect } from 'chai';
import { HttpPixProvider, PixPayment, PixRecipient, readSettlementCallback } from '../../providers/pix-client';
import { PixError } from '../../providers/provider-errors';
import { PayoutPspStatements } from '../../providers/psp-statements';
import { Money } from '../../domain/money';
import { startSandbox, RunningSandbox } from '../../sandbox/server';
import { ApiClient } from '../support/http';
import { sharedSandbox, sandboxCallbackSecrets } from '../support/stack';
import { CallbackReceiver, rejectionOf, unique } from './support';

const recipient = (email: string | null = null): PixRecipient => ({
  name: 'Assignor Ltda', document: '11222333000181', email, destination: { kind: 'pix_key', key: '11222333000181' },
});

describe('sandbox PIX provider through the adapter', () => {
  let pix: HttpPixProvider;
  let sandbox: ApiClient;
  let receiver: CallbackReceiver;

  before(async () => {
    const running = await sharedSandbox();
    pix = new HttpPixProvider(running.pixUrl, 5_000);
    sandbox = new ApiClient(running.pixUrl);
    receiver = await CallbackReceiver.start();
  });
  after(() => receiver.close());

  const settlementOf = (payment: PixPayment) => receiver.next((body) => body.payment_id === payment.paymentId).then(readSettlementCallback);

  it('makes one payment for two creates with one idempotency key, and counts both requests', async () => {
    const key = unique('op-pix');
    const first = await pix.createPayment(key, '1234.56', recipient(), receiver.url);
    const second = await pix.createPayment(key, '1234.56', recipient(), receiver.url);
    expect(second.paymentId).to.equal(first.paymentId);
    expect(first).to.include({ idempotencyKey: key, status: 'PENDING', amount: '1234.56', settledAmount: null });

    const listed = await sandbox.get(`/payments?idempotency_key=${key}`);
    expect(listed.body.payments).to.have.length(1);
    expect(listed.body.payments[0]).to.include({ id: first.paymentId, request_count: 2 });
  });

  it('refuses a known idempotency key with another amount, as pix_rejected', async () => {
    const key = unique('op-pix');
    await pix.createPayment(key, '100.00', recipient(), null);
    const err = await rejectionOf(pix.createPayment(key, '100.01', recipient(), null));
    expect(err).to.be.instanceOf(PixError);
    expect(err).to.include({ code: 'pix_rejected', providerStatus: 409, retryable: false });
  });

  it('settles after the delay, calls back with the settled amount, and the status query agrees', async () => {
    const payment = await pix.createPayment(unique('op-pix'), '987.65', recipient(), receiver.url);
    expect(await settlementOf(payment)).to.deep.equal({ paymentId: payment.paymentId, idempotencyKey: payment.idempotencyKey, status: 'SETTLED', settledAmount: '987.65' });
    expect(await pix.getPayment(payment.paymentId)).to.include({ status: 'SETTLED', settledAmount: '987.65', rejectionReason: null });
  });

  it('pays a bank account as well as a PIX key', async () => {
    const toAccount: PixRecipient = { ...recipient(), destination: { kind: 'bank_account', code: '341', agency: '0001', account: '12345-6', type: 'CC' } };
    const payment = await pix.createPayment(unique('op-pix'), '10.00', toAccount, receiver.url);
    expect((await settlementOf(payment))?.status).to.equal('SETTLED');
  });

  it('accepts a pix-reject payment, then settles it REJECTED with nothing paid', async () => {
    const payment = await pix.createPayment(unique('op-pix'), '50.00', recipient(`pix-reject+${unique('t')}@example.com`), receiver.url);
    expect(payment.status).to.equal('PENDING');
    expect(await settlementOf(payment)).to.deep.equal({ paymentId: payment.paymentId, idempotencyKey: payment.idempotencyKey, status: 'REJECTED', settledAmount: '0.00' });
    const read = await pix.getPayment(payment.paymentId);
    expect(read.status).to.equal('REJECTED');
    expect(read.rejectionReason).to.contain('pix-reject');
  });

  it('settles a pix-short payment SETTLED one cent short of the amount ordered', async () => {
    const payment = await pix.createPayment(unique('op-pix'), '50.00', recipient(`pix-short+${unique('t')}@example.com`), receiver.url);
    expect(await settlementOf(payment)).to.deep.equal({ paymentId: payment.paymentId, idempotencyKey: payment.idempotencyKey, status: 'SETTLED', settledAmount: '49.99' });
    expect(await pix.getPayment(payment.paymentId)).to.include({ status: 'SETTLED', amount: '50.00', settledAmount: '49.99' });
  });

  it('rejects only the first payment with pix-reject-once, so a retry under a new key is paid', async () => {
    const email = `pix-reject-once+${unique('t')}@example.com`;
    const first = await pix.createPayment(unique('op-pix-1'), '75.00', recipient(email), receiver.url);
    const retry = await pix.createPayment(unique('op-pix-2'), '75.00', recipient(email), receiver.url);
    expect((await settlementOf(first))?.status).to.equal('REJECTED');
    expect((await settlementOf(retry))?.status).to.equal('SETTLED');
  });

  it('refuses a malformed amount as pix_rejected, never rounding it', async () => {
    const err = await rejectionOf(pix.createPayment(unique('op-pix'), '10.5', recipient(), null));
    expect(err).to.include({ code: 'pix_rejected', providerStatus: 422, retryable: false });
  });

  it('maps an unknown payment and an unreachable provider to pix_unavailable', async () => {
    expect(await rejectionOf(pix.getPayment('00000000-0000-0000-0000-000000000000'))).to.include({ code: 'pix_unavailable', providerStatus: 404, retryable: false });
    const unreachable = new HttpPixProvider('http://127.0.0.1:9/pix', 1_000);
    expect(await rejectionOf(unreachable.createPayment(unique('op-pix'), '1.00', recipient(), null))).to.include({ code: 'pix_unavailable', retryable: true });
  });

  describe('with its own settlement delays', () => {
    let own: RunningSandbox;
    let ownPix: HttpPixProvider;
    before(async () => {
      own = await startSandbox({ port: 0, settlementDelayMs: 0, slowSettlementDelayMs: 800, logLevel: 'error', callbackSecrets: sandboxCallbackSecrets() });
      ownPix = new HttpPixProvider(own.pixUrl, 5_000);
    });
    after(() => own.close());

    it('settles a pix-slow payment only after the slow delay, while a normal one settles at once (delay 0)', async () => {
      const slow = await ownPix.createPayment(unique('op-pix'), '20.00', recipient(`pix-slow+${unique('t')}@example.com`), receiver.url);
      const quick = await ownPix.createPayment(unique('op-pix'), '20.00', recipient(), receiver.url);
      expect((await settlementOf(quick))?.status).to.equal('SETTLED');
      expect((await ownPix.getPayment(slow.paymentId)).status).to.equal('PENDING');
      expect(await settlementOf(slow)).to.deep.equal({ paymentId: slow.paymentId, idempotencyKey: slow.idempotencyKey, status: 'SETTLED', settledAmount: '20.00' });
    });
  });

  it('lists each payment it settled in its statement, known by our key with an end-to-end id, paged, and its balance falls by what it paid', async () => {
    const from = new Date();
    const paid = await pix.createPayment(unique('op-pix'), '20.00', recipient(), receiver.url);
    const refused = await pix.createPayment(unique('op-pix'), '30.00', recipient(`pix-reject+${unique('t')}@example.com`), receiver.url);
    const short = await pix.createPayment(unique('op-pix'), '50.00', recipient(`pix-short+${unique('t')}@example.com`), receiver.url);
    for (const payment of [paid, refused, short]) await settlementOf(payment);
    const to = new Date(Date.now() + 1);
    const statements = new PayoutPspStatements((await sharedSandbox()).pixUrl, 5_000);
    const { lines, closingBalance } = await statements.statement(from, to);
    const mine = lines.filter((line) => [paid, refused, short].some((p) => p.idempotencyKey === line.reference));
    expect(mine.map((line) => [line.reference, line.direction, line.amount.toString()])).to.deep.equal([
      [paid.idempotencyKey, 'out', '20.00'], [short.idempotencyKey, 'out', '49.99'],
    ]);
    for (const line of mine) expect(line.endToEndId).to.match(/^E99999008\d{12}[A-Z0-9]{11}$/);
    const opening = (await statements.statement(new Date(from.getTime() - 1), from)).closingBalance;
    expect(opening.minus(Money.sum(lines.map((line) => line.amount))).toString()).to.equal(closingBalance.toString());

    const firstPage = await sandbox.get(`/statement?from=${from.toISOString()}&to=${to.toISOString()}&page=0&page_size=1`);
    expect(firstPage.status).to.equal(200);
    expect(firstPage.body).to.include({ total_pages: lines.length, page_size: 1, closing_balance: closingBalance.toString() });
    expect(firstPage.body.lines).to.have.length(1);
    expect((await sandbox.get(`/statement?from=${from.toISOString()}`)).status).to.equal(400);
  });
});
