import { expect } from 'chai';
import { sharedSandbox, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { createDirect, directBody, startOperationsTestWithBackoffice } from '../support/operations';
import { mailboxOf, signAll, signersOf, untilStatus, wakeSettlementWait, wakeSignatureWait } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { eventually } from '../support/webhooks';
import { closeTemporal, operationWorkflow } from '../support/temporal';
import { recordHistory } from '../support/histories';
import { Money } from '../../domain/money';
import { SETTLEMENT_AMOUNT_MISMATCH } from '../../domain/pix-retry';

describe('operation lifecycle on Temporal', () => {
  let client: ApiClient;
  let token: string;
  let backoffice: string;
  before(async () => {
    ({ client, token, backoffice } = await startOperationsTestWithBackoffice());
  });
  after(closeTemporal);

  const eventsOf = async (operationId: string) =>
    (await testDb()('events').whereRaw("data->>'operation_id' = ?", [operationId]).orderBy('occurred_at')).map((e) => e.event_type);

  it('reaches PAID with e-mail signing: contract sent, signed through the page, PIX settled and reconciled', async () => {
    const created = await createDirect(client, token);
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    const signers = await signersOf(client, token, id);
    expect(signers.signers[0]).to.include({ signed: false });
    expect(signers.document_status).to.be.a('string');
    expect((await mailboxOf(id)).map((m) => m.sign_url)).to.have.members(signers.signers.map((s: { sign_url: string }) => s.sign_url));
    await signAll(client, token, id);
    const paid = await untilStatus(client, token, id, 'PAID');
    const disbursement = await testDb()('disbursements').where({ operation_id: id }).first();
    expect(disbursement).to.include({ status: 'SETTLED', settled_amount: paid.opr_net_present_liquid_value });
    const after = await signersOf(client, token, id);
    expect(after.signers[0]).to.include({ signed: true, sign_url: null });
    expect(await eventsOf(id)).to.include.members(['operation.created', 'operation.approved', 'operation.contract_signed', 'operation.paid']);
    await recordHistory('happy-path', id);
  });

  it('reaches PAID with embedded signing: no e-mail sent, the integrator presents the sign_url', async () => {
    const body = directBody({ embedded_signature: true, email: `embedded+${Date.now()}@example.com` });
    const created = await createDirect(client, token, body);
    await untilStatus(client, token, created.body.id, 'CONTRACT_SENT');
    const signers = await signersOf(client, token, created.body.id);
    expect(signers.signers.length).to.be.greaterThan(0);
    expect(signers.signers.every((s: { sign_url: string | null }) => typeof s.sign_url === 'string')).to.equal(true);
    expect(await mailboxOf(created.body.id)).to.deep.equal([]);
    await signAll(client, token, created.body.id);
    await untilStatus(client, token, created.body.id, 'PAID');
    expect(await mailboxOf(created.body.id)).to.deep.equal([]);
  });

  it('waits for a human: approval moves WAITING_APPROVAL to PRE_APPROVED and on to the contract', async () => {
    const created = await createDirect(client, token, directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'WAITING_APPROVAL');
    const queue = await client.get('/v1/backoffice/approval-queue?limit=200', { token: backoffice });
    expect(queue.body.items.map((i: { id: string }) => i.id)).to.include(id);
    const approved = await client.post(`/v1/backoffice/operations/${id}/approve`, { note: 'ok' }, { token: backoffice });
    expect(approved.status, approved.text).to.equal(200);
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    const again = await client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token: backoffice });
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.equal({ detail: 'operation_cannot_be_approved' });
    expect(await eventsOf(id)).to.include.members(['operation.approval_requested', 'operation.approved']);
    await recordHistory('approval', id);
  });

  it('denies with a reason: DENIED, titles cancelled, and a second decision is 409', async () => {
    const created = await createDirect(client, token, directBody({ receivables: [receivable({ net_future_value: '80000.00', requested_net_future_value: '80000.00' })] }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'WAITING_APPROVAL');
    const denied = await client.post(`/v1/backoffice/operations/${id}/deny`, { reason: 'payer concentration' }, { token: backoffice });
    expect(denied.status, denied.text).to.equal(200);
    expect(denied.body.lifecycle_status).to.equal('DENIED');
    expect(denied.body.titles.every((t: { status: string }) => t.status === 'CANCELLED')).to.equal(true);
    const deniedAgain = await client.post(`/v1/backoffice/operations/${id}/deny`, { reason: 'again' }, { token: backoffice });
    expect(deniedAgain.body).to.deep.equal({ detail: 'operation_cannot_be_denied' });
    const approveDenied = await client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token: backoffice });
    expect(approveDenied.body).to.deep.equal({ detail: 'operation_cannot_be_approved' });
    expect(await eventsOf(id)).to.include('operation.denied');
    await recordHistory('denial', id);
  });

  it('refuses a client token on a backoffice route and a user token on an integration route', async () => {
    expect((await client.get('/v1/backoffice/approval-queue', { token })).body).to.deep.equal({ detail: 'invalid_token_type' });
    expect((await client.get('/v1/operations', { token: backoffice })).body).to.deep.equal({ detail: 'invalid_token_type' });
  });

  it('continues as new while waiting long for signatures, keeping its search attributes, and still reaches PAID', async function () {
    this.timeout(120_000);
    const created = await createDirect(client, token, directBody({ embedded_signature: true }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    const first = (await operationWorkflow(id)).description.runId;
    // The test server suggests continuing as new after 40 events; each unanswered check adds about 8.
    // Polls alone take 65 s to get there (5 + 10 + 20 + 30 s): callbacks that find nobody signed
    // wake the same wait sooner, and the continue-as-new follows whatever woke it.
    let nudges = 0;
    const resumed = await eventually(async () => {
      await wakeSignatureWait(client, id, nudges += 1);
      const now = await operationWorkflow(id);
      expect(now.description.runId, `history length ${now.description.historyLength}`).to.not.equal(first);
      return now;
    }, 75_000);
    expect(resumed.state).to.include({ status: 'CONTRACT_SENT' });
    expect(resumed.searchAttributes).to.include({ lifecycleStatus: 'CONTRACT_SENT', displayNumber: created.body.display_number });
    await signAll(client, token, id);
    await untilStatus(client, token, id, 'PAID');
    expect(await eventsOf(id)).to.include.members(['operation.created', 'operation.contract_signed', 'operation.paid']);
    await recordHistory('continue-as-new-signatures', id);
  });

  describe('cancellation', () => {
    for (const [label, setup] of [
      ['WAITING_APPROVAL', async () => (await createDirect(client, token, directBody({ receivables: [receivable({ net_future_value: '90000.00', requested_net_future_value: '90000.00' })] }))).body.id],
      ['CONTRACT_SENT', async () => (await createDirect(client, token)).body.id],
    ] as [string, () => Promise<string>][]) {
      it(`cancels in ${label}: CANCELLED, titles cancelled, document voided`, async () => {
        const id = await setup();
        await untilStatus(client, token, id, label);
        const res = await client.post(`/v1/operations/${id}/cancel`, { reason: 'customer gave up' }, { token });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.lifecycle_status).to.equal('CANCELLED');
        expect(res.body.titles.every((t: { status: string }) => t.status === 'CANCELLED')).to.equal(true);
        const signers = await client.get(`/v1/operations/${id}/contract/signers`, { token });
        expect(signers.body).to.deep.equal({ detail: 'contract_not_found' });
        expect(await eventsOf(id)).to.include('operation.cancelled');
        await recordHistory(`cancel-${label.toLowerCase().replace(/_/g, '-')}`, id);
      });
    }

    it('refuses to cancel a PAID operation with 409 operation_cannot_be_cancelled', async () => {
      const id = (await createDirect(client, token)).body.id;
      await untilStatus(client, token, id, 'CONTRACT_SENT');
      await signAll(client, token, id);
      await untilStatus(client, token, id, 'PAID');
      const res = await client.post(`/v1/operations/${id}/cancel`, {}, { token });
      expect(res.status).to.equal(409);
      expect(res.body).to.deep.equal({ detail: 'operation_cannot_be_cancelled' });
    });
  });

  describe('contract dispatch failures', () => {
    for (const [magic, code] of [
      ['esign-fail-create-once', 'esign_create_failed'],
      ['esign-fail-signer-once', 'esign_add_signer_failed'],
      ['esign-fail-update-once', 'esign_update_signer_failed'],
      ['esign-fail-template-once', 'esign_template_inventory_failed'],
    ]) {
      it(`${code}: CONTRACT_ERROR with the partial document voided, then a re-dispatch reaches CONTRACT_SENT`, async () => {
        const created = await createDirect(client, token, directBody({ email: `${magic}+${Date.now()}@example.com` }));
        const id = created.body.id;
        await untilStatus(client, token, id, 'CONTRACT_ERROR');
        const failed = await testDb()('contracts').where({ operation_id: id }).first();
        expect(failed).to.include({ status: 'ERROR', error_code: code });
        expect((await client.get(`/v1/operations/${id}/contract/signers`, { token })).body).to.deep.equal({ detail: 'contract_not_found' });
        const redispatch = await client.post(`/v1/operations/${id}/contract/send-for-signature`, { embedded: true }, { token });
        expect(redispatch.status, redispatch.text).to.equal(201);
        expect(redispatch.body).to.include({ operation_id: id, lifecycle_status: 'CONTRACT_SENT', embedded: true, signers_notified: null, is_first_contract: true });
        expect(redispatch.body.signers[0].sign_url).to.be.a('string');
        await untilStatus(client, token, id, 'CONTRACT_SENT');
        const second = await client.post(`/v1/operations/${id}/contract/send-for-signature`, {}, { token });
        expect(second.body).to.deep.equal({ detail: 'contract_already_exists' });
        await recordHistory(`contract-error-redispatch-${code}`, id);
      });
    }

    it('a document the provider forgot: CONTRACT_ERROR with the reason, never a failed workflow; a re-dispatch creates a fresh document and reaches PAID', async () => {
      const id = (await createDirect(client, token)).body.id;
      await untilStatus(client, token, id, 'CONTRACT_SENT');
      const lost = await testDb()('contracts').where({ operation_id: id, status: 'SENT' }).first();
      const forgot = await fetch(`${(await sharedSandbox()).esignUrl}/documents/${lost.provider_document_id}/forget`, { method: 'POST' });
      expect(forgot.status).to.equal(204);
      await untilStatus(client, token, id, 'CONTRACT_ERROR', 40_000);
      expect(await testDb()('contracts').where({ id: lost.id }).first()).to.include({ status: 'ERROR', error_code: 'esign_document_not_found' });
      const stuck = await operationWorkflow(id);
      expect(stuck.description.status.name).to.equal('RUNNING');
      expect(stuck.state).to.include({ status: 'CONTRACT_ERROR', lastError: 'esign_document_not_found' });
      expect(stuck.state.waitingFor).to.include('send-for-signature');

      const redispatch = await client.post(`/v1/operations/${id}/contract/send-for-signature`, {}, { token });
      expect(redispatch.status, redispatch.text).to.equal(201);
      expect(redispatch.body.contract_id).to.not.equal(lost.id);
      await signAll(client, token, id);
      await untilStatus(client, token, id, 'PAID');
      const contracts = await testDb()('contracts').where({ operation_id: id }).orderBy('attempt');
      expect(contracts.map((c) => c.status)).to.deep.equal(['ERROR', 'SIGNED']);
      expect(contracts[1].provider_document_id).to.not.equal(lost.provider_document_id);
      await recordHistory('contract-forgotten-redispatch', id);
    });

    it('answers operation_not_in_signable_state while waiting for approval', async () => {
      const created = await createDirect(client, token, directBody({ receivables: [receivable({ net_future_value: '95000.00', requested_net_future_value: '95000.00' })] }));
      await untilStatus(client, token, created.body.id, 'WAITING_APPROVAL');
      const res = await client.post(`/v1/operations/${created.body.id}/contract/send-for-signature`, {}, { token });
      expect(res.status).to.equal(409);
      expect(res.body).to.deep.equal({ detail: 'operation_not_in_signable_state' });
    });
  });

  it('PIX refusal: DISBURSEMENT_FAILED, then a human retry reaches PAID with a second payment', async () => {
    const created = await createDirect(client, token, directBody({ email: `pix-reject-once+${Date.now()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    await signAll(client, token, id);
    await untilStatus(client, token, id, 'DISBURSEMENT_FAILED');
    const retry = await client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: backoffice });
    expect(retry.status, retry.text).to.equal(200);
    await untilStatus(client, token, id, 'PAID');
    const attempts = await testDb()('disbursements').where({ operation_id: id }).orderBy('attempt');
    expect(attempts.map((a) => a.status)).to.deep.equal(['REJECTED', 'SETTLED']);
    await recordHistory('pix-refusal-retry', id);
  });

  it('a settlement short of the amount owed is not retried: reconciled once to DISBURSEMENT_FAILED (settlement_amount_mismatch), never PAID', async () => {
    const created = await createDirect(client, token, directBody({ email: `pix-short+${Date.now()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    await signAll(client, token, id);
    const failed = await untilStatus(client, token, id, 'DISBURSEMENT_FAILED');
    const stuck = await operationWorkflow(id);
    expect(stuck.description.status.name).to.equal('RUNNING');
    expect(stuck.state).to.include({ status: 'DISBURSEMENT_FAILED', lastError: SETTLEMENT_AMOUNT_MISMATCH, disbursementAttempts: 1 });
    const short = Money.of(failed.opr_net_present_liquid_value).minus(Money.of('0.01')).toString();
    const attempts = await testDb()('disbursements').where({ operation_id: id }).orderBy('attempt');
    expect(attempts.map((a) => [a.status, a.settled_amount])).to.deep.equal([['SETTLED', short]]);
    expect(await eventsOf(id)).to.not.include('operation.paid');
  });

  it('a PIX payment the provider forgot: looked up by its key, none found, DISBURSEMENT_FAILED; a retry pays once and reaches PAID', async function () {
    this.timeout(120_000);
    const created = await createDirect(client, token, directBody({ email: `pix-slow-once+${Date.now()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    await signAll(client, token, id);
    await untilStatus(client, token, id, 'DISBURSING');
    const first = await eventually(async () => {
      const row = await testDb()('disbursements').where({ operation_id: id, attempt: 1 }).first();
      expect(row?.provider_payment_id).to.be.a('string');
      return row;
    });
    const forgot = await fetch(`${(await sharedSandbox()).pixUrl}/payments/${first.provider_payment_id}/forget`, { method: 'POST' });
    expect(forgot.status).to.equal(204);
    // A callback has the workflow ask at once what its 15 s poll would ask (the poll itself runs in
    // the model test's skipped time).
    await wakeSettlementWait(client, id, 1);
    await untilStatus(client, token, id, 'DISBURSEMENT_FAILED', 40_000);
    const stuck = await operationWorkflow(id);
    expect(stuck.description.status.name).to.equal('RUNNING');
    expect(stuck.state).to.include({ status: 'DISBURSEMENT_FAILED', lastError: 'pix_payment_not_found' });
    const retry = await client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: backoffice });
    expect(retry.status, retry.text).to.equal(200);
    await untilStatus(client, token, id, 'PAID');
    const attempts = await testDb()('disbursements').where({ operation_id: id }).orderBy('attempt');
    expect(attempts.map((a) => [a.status, a.rejection_reason])).to.deep.equal([['REJECTED', 'pix_payment_not_found'], ['SETTLED', null]]);
    await recordHistory('pix-forgotten-retry', id);
  });

  it('the signers route answers 502 esign_unavailable when the provider fails, and recovers', async () => {
    const created = await createDirect(client, token, directBody({ email: `esign-unavailable-x2+${Date.now()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    const statuses = await eventually(async () => {
      const res = await client.get(`/v1/operations/${id}/contract/signers`, { token });
      expect(res.status).to.equal(200);
      return res;
    });
    expect(statuses.body.signers.length).to.be.greaterThan(0);
  });
});
