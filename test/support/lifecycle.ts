import { expect } from 'chai';
import { ApiClient } from './http';
import { providerSignatureHeaders } from '../../domain/provider-signature';
import { sharedSandbox, testConfig, testDb } from './stack';
import { eventually } from './webhooks';
import { signThroughPage } from '../sandbox/support';

/** Polls the operation until its lifecycle_status is `status` (the workflow runs asynchronously). */
export async function untilStatus(client: ApiClient, token: string, operationId: string, status: string, timeoutMs = 20_000) {
  return eventually(async () => {
    const res = await client.get(`/v1/operations/${operationId}`, { token });
    expect(res.body.lifecycle_status, `operation ${operationId}`).to.equal(status);
    return res.body;
  }, timeoutMs);
}

/** The contract's signers once the dispatch is done (404/409 are transient while it is pending). */
export async function signersOf(client: ApiClient, token: string, operationId: string) {
  return eventually(async () => {
    const res = await client.get(`/v1/operations/${operationId}/contract/signers`, { token });
    expect(res.status, res.text).to.equal(200);
    return res.body;
  });
}

/** Signs every pending signer through the sandbox signing page, as a person would. */
export async function signAll(client: ApiClient, token: string, operationId: string): Promise<void> {
  const signers = await signersOf(client, token, operationId);
  for (const signer of signers.signers) if (signer.sign_url) await signThroughPage(signer.sign_url);
}

/** From approval to PAID: the contract dispatched, every signer signed, the PIX settled. */
export async function untilPaid(client: ApiClient, token: string, operationId: string) {
  await untilStatus(client, token, operationId, 'CONTRACT_SENT');
  await signAll(client, token, operationId);
  return untilStatus(client, token, operationId, 'PAID', 90_000);
}

/** The e-mails the sandbox e-sign provider sent for the operation's current contract (its mailbox, filtered by document). */
export async function mailboxOf(operationId: string): Promise<{ to: string; sign_url: string }[]> {
  const contract = await testDb()('contracts').where({ operation_id: operationId }).orderBy('attempt', 'desc').first('provider_document_id');
  expect(contract?.provider_document_id, `the contract of ${operationId}`).to.be.a('string');
  const { esignUrl } = await sharedSandbox();
  const res = await new ApiClient(esignUrl).get(`/mailbox?document_id=${encodeURIComponent(contract.provider_document_id)}`);
  expect(res.status, res.text).to.equal(200);
  return res.body.messages;
}

/** Posts `body` to a provider callback route, signed as that provider signs; it must be accepted (202). */
async function providerCallback(client: ApiClient, path: string, secret: string, body: object): Promise<void> {
  const raw = JSON.stringify(body);
  const headers = providerSignatureHeaders(secret, raw, Math.floor(Date.now() / 1000));
  const res = await client.request('POST', path, { rawBody: raw, headers: { 'Content-Type': 'application/json', ...headers } });
  expect(res.status, res.text).to.equal(202);
}

/**
 * Wakes the operation's wait for signatures as the e-sign provider's signed callback does, with
 * nobody having signed: the workflow checks the signers again, one more round in its history, as
 * an unanswered poll adds. `nudge` makes each callback distinct (a replayed one does nothing).
 */
export async function wakeSignatureWait(client: ApiClient, operationId: string, nudge: number): Promise<void> {
  const contract = await testDb()('contracts').where({ operation_id: operationId }).orderBy('attempt', 'desc').first('provider_document_id');
  await providerCallback(client, '/v1/internal/esign/callback', testConfig().callbacks.esignSecret,
    { event: 'signer.signed', document_id: contract.provider_document_id, signer: { id: `nobody-${nudge}` } });
}

/**
 * Wakes the wait for a PIX payment's settlement as the provider's signed callback does (a hint: the
 * workflow re-reads the payment), instead of the 15 s poll finding what the provider now says.
 */
export async function wakeSettlementWait(client: ApiClient, operationId: string, attempt: number): Promise<void> {
  const payment = await testDb()('disbursements').where({ operation_id: operationId, attempt }).first('provider_payment_id', 'idempotency_key');
  await providerCallback(client, '/v1/internal/pix/callback', testConfig().callbacks.pixSecret,
    { payment_id: payment.provider_payment_id, idempotency_key: payment.idempotency_key, status: 'REJECTED', settled_amount: '0.00' });
}
