import { expect } from 'chai';
import { anotherApi, sharedApi, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { createDirect, startOperationsTest } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { closeTemporal, temporal } from '../support/temporal';
import { providerSignatureHeaders } from '../../domain/provider-signature';

const ESIGN = '/v1/internal/esign/callback';
const PIX = '/v1/internal/pix/callback';
const now = () => Math.floor(Date.now() / 1000);

/** Issue #13: provider callbacks prove their origin with an HMAC over timestamp and raw body. */
describe('provider callbacks are signed', function () {
  this.timeout(60_000);
  let client: ApiClient;
  const secrets = () => testConfig().callbacks;
  const post = (path: string, body: string, headers: Record<string, string>, via = client) =>
    via.request('POST', path, { rawBody: body, headers: { 'Content-Type': 'application/json', ...headers } });
  const signalsOf = async (operationId: string) => {
    const history = await (await temporal()).workflow.getHandle(`operation-${operationId}`).fetchHistory();
    return history.events!.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'signerSigned').length;
  };

  before(async () => { client = new ApiClient((await sharedApi()).url); });
  after(closeTemporal);

  it('a valid signature wakes the workflow once; the same signature replayed is accepted and does nothing', async () => {
    const { client: api, token } = await startOperationsTest();
    const op = await createDirect(api, token);
    await untilStatus(api, token, op.body.id, 'CONTRACT_SENT');
    const contract = await testDb()('contracts').where({ operation_id: op.body.id }).first('provider_document_id');
    const signalsBefore = await signalsOf(op.body.id);
    const body = JSON.stringify({ event: 'signer.signed', document_id: contract.provider_document_id, signer: { id: 'signer-1' } });
    const headers = providerSignatureHeaders(secrets().esignSecret, body, now());

    const first = await post(ESIGN, body, headers);
    expect(first.status, first.text).to.equal(202);
    expect(await signalsOf(op.body.id)).to.equal(signalsBefore + 1);
    const replay = await post(ESIGN, body, headers);
    expect(replay.status, replay.text).to.equal(202);
    expect(await signalsOf(op.body.id)).to.equal(signalsBefore + 1);
    expect(await testDb()('provider_callback_signatures').where({ signature: headers['X-Provider-Signature'].slice(3) })).to.have.length(1);
  });

  it('missing, wrong and stale signatures are 401 in the envelope and nothing is recorded', async () => {
    const body = JSON.stringify({ payment_id: 'pay_unknown', status: 'SETTLED' });
    const rowsBefore = (await testDb()('provider_callback_signatures')).length;
    const refusal = async (headers: Record<string, string>, path = PIX) => {
      const res = await post(path, body, headers);
      expect(res.status, res.text).to.equal(401);
      return res.body.detail;
    };
    expect(await refusal({})).to.equal('callback_signature_missing');
    expect(await refusal({ 'X-Provider-Timestamp': String(now()) })).to.equal('callback_signature_missing');
    expect(await refusal(providerSignatureHeaders('not-the-pix-secret-at-all', body, now()))).to.equal('callback_signature_invalid');
    // The e-sign secret does not sign PIX callbacks: secrets are per provider.
    expect(await refusal(providerSignatureHeaders(secrets().esignSecret, body, now()))).to.equal('callback_signature_invalid');
    // A valid signature over another body (the body was tampered with).
    expect(await refusal(providerSignatureHeaders(secrets().pixSecret, body.replace('SETTLED', 'REJECTED'), now()))).to.equal('callback_signature_invalid');
    expect(await refusal(providerSignatureHeaders(secrets().pixSecret, body, now() - 301))).to.equal('callback_signature_stale');
    expect(await refusal(providerSignatureHeaders(secrets().pixSecret, body, now() + 301))).to.equal('callback_signature_stale');
    expect((await testDb()('provider_callback_signatures')).length).to.equal(rowsBefore);
    // Inside the window it is accepted.
    expect((await post(PIX, body, providerSignatureHeaders(secrets().pixSecret, body, now() - 290))).status).to.equal(202);
  });

  it('an unsigned callback reaches no handler on any spelling of either path: 401, never 404 or 500', async () => {
    const body = JSON.stringify({ document_id: 'doc_unknown', payment_id: 'pay_unknown', status: 'SETTLED' });
    for (const [provider, path] of [['esign', ESIGN], ['pix', PIX]]) {
      // The spellings the route table resolves to the callback operation must be verified there.
      for (const spelling of [path, `${path}/`]) {
        const res = await post(spelling, body, {});
        expect(res.status, `${spelling}: ${res.text}`).to.equal(401);
        expect(res.body.detail).to.equal('callback_signature_missing');
      }
      // Spellings no documented route matches are refused before any body is read, as unverified callbacks.
      const other = [
        path.replace('/internal/', '/internal//'), `/${path}`, `${path}//`, `${path}%2F`, path.replace(provider, `%${provider.charCodeAt(0).toString(16)}${provider.slice(1)}`),
        path.toUpperCase(), path.replace('/callback', '/CALLBACK'),
      ];
      for (const spelling of other) {
        const res = await post(spelling, body, {});
        expect(res.status, `${spelling}: ${res.text}`).to.equal(401);
        expect(res.body.detail).to.equal('callback_signature_missing');
      }
    }
    // A valid signature is honoured on the trailing-slash spelling too: the check follows the route.
    const signed = await post(`${PIX}/`, body, providerSignatureHeaders(secrets().pixSecret, body, now()));
    expect(signed.status, signed.text).to.equal(202);
  });

  it('the callback routes have their own per-IP budget', async () => {
    const limited = new ApiClient((await anotherApi({ TRUST_PROXY: 'true', RATE_LIMIT_CALLBACK_RPM: '2' })).url);
    const body = JSON.stringify({ payment_id: 'pay_unknown' });
    const from = { 'X-Forwarded-For': '203.0.113.77' };
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await post(PIX, body, { ...from, ...providerSignatureHeaders(secrets().pixSecret, body, now() - i) }, limited)).status);
    expect(statuses).to.deep.equal([202, 202, 429]);
    // Another route class from the same address is not charged by callbacks.
    expect((await limited.post('/v1/auth/token', {}, { headers: from })).status).to.equal(422);
  });

  it('the sandbox signs its own callbacks, which drive an operation to PAID', async () => {
    const { client: api, token } = await startOperationsTest();
    const op = await createDirect(api, token);
    await untilStatus(api, token, op.body.id, 'CONTRACT_SENT');
    const since = new Date();
    await signAll(api, token, op.body.id);
    await untilStatus(api, token, op.body.id, 'PAID', 30_000);
    const recorded = await testDb()('provider_callback_signatures').where('received_at', '>=', since).select('provider');
    expect(new Set(recorded.map((r) => r.provider))).to.deep.equal(new Set(['esign', 'pix']));
  });
});
