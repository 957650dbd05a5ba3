import { expect } from 'chai';
import { buildUser, loginAs } from '../support/factories';
import { signAll, untilStatus } from '../support/lifecycle';
import { createDirect, directBody, operationsStack } from '../support/operations';
import type { Payload } from '@temporalio/common';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { EncryptionCodec } from '../../platform/crypto/payload-codec';
import { testConfig, testDb } from '../support/stack';
import { connectTestClient } from '../support/temporal';
import { receivable } from '../support/simulate';

interface Row { action: string; actor: { id: string }; before: unknown; after: unknown; request: unknown; request_id: string }

/**
 * A staff decision's audit row says what the system did, never what the body claimed, and is
 * there the moment the decision's answer is: the activity that applies the decision writes it in
 * the same transaction (no window in which one is visible without the other).
 */
describe('audit rows of staff decisions', function () {
  this.timeout(240_000);
  const stack = operationsStack();

  const rowsAbout = async (id: string, action: string): Promise<Row[]> => (await testDb()('audit_events').where({ target_id: id, action }).orderBy('seq'))
    .map((r) => ({ action: r.action, actor: r.actor, before: r.before, after: r.after, request: r.request, request_id: r.request_id }));
  const statusOf = async (id: string) => (await testDb()('operations').where({ id }).first()).lifecycle_status;

  async function waitingApproval() {
    const body = directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] });
    const created = await createDirect(stack.client, stack.token, body);
    expect(created.status, created.text).to.equal(201);
    await untilStatus(stack.client, stack.token, created.body.id, 'WAITING_APPROVAL');
    return created.body.id as string;
  }

  it('refuses a deny or approve body with fields of its own (422, nothing written); a real deny records DENIED, the reason under request', async () => {
    const { client } = stack;
    const approver = await buildUser({ roles: ['approver'] });
    const token = await loginAs(client, approver);
    const id = await waitingApproval();

    const forged = await client.post(`/v1/backoffice/operations/${id}/deny`, { reason: 'test', lifecycle_status: 'PRE_APPROVED' }, { token });
    expect(forged.status, forged.text).to.equal(422);
    const stranger = await client.post(`/v1/backoffice/operations/${id}/approve`, { note: 'ok', decided_by: 'someone-else@example.com' }, { token });
    expect(stranger.status, stranger.text).to.equal(422);
    expect(await statusOf(id)).to.equal('WAITING_APPROVAL');
    expect(await rowsAbout(id, 'operation.deny')).to.deep.equal([]);
    expect(await rowsAbout(id, 'operation.approve')).to.deep.equal([]);

    const denied = await client.post(`/v1/backoffice/operations/${id}/deny`, { reason: 'test' }, { token, headers: { 'X-Request-Id': `deny-${id}` } });
    expect(denied.status, denied.text).to.equal(200);
    // Read at once: the row committed with the move, before the answer.
    expect(await rowsAbout(id, 'operation.deny')).to.deep.equal([{
      action: 'operation.deny', actor: { type: 'user', id: approver.id, email: approver.email },
      before: { lifecycle_status: 'WAITING_APPROVAL' }, after: { lifecycle_status: 'DENIED' }, request: { reason: 'test' }, request_id: `deny-${id}`,
    }]);
    expect(await statusOf(id)).to.equal('DENIED');

    // The who and from where travelled in the update, sealed by the payload codec: the history as
    // the server stores it has none of it in clear, and opening its payloads with the codec shows it.
    const temporal = await connectTestClient(false);
    try {
      const history = await temporal.workflow.getHandle(`operation-${id}`).fetchHistory();
      const payloads: Payload[] = [];
      const walk = (value: unknown): void => {
        if (!value || typeof value !== 'object' || value instanceof Uint8Array) return;
        const candidate = value as Payload;
        if (candidate.data instanceof Uint8Array && candidate.metadata) payloads.push(candidate);
        else Object.values(value).forEach(walk);
      };
      walk(history);
      expect(payloads).to.not.deep.equal([]);
      const text = (list: Payload[]) => list.map((p) => Buffer.from(p.data ?? []).toString('latin1')).join('\n');
      expect(text(payloads)).to.not.include(approver.email);
      const opened = await new EncryptionCodec(new CipherRing(testConfig().payloadKeys)).decode(payloads);
      expect(text(opened)).to.include(approver.email).and.include(`deny-${id}`);
    } finally {
      await temporal.connection.close();
    }
  });

  it('records an approval, a staff cancellation, a re-dispatch and a disbursement retry with the state the system reached, each row there with its answer', async () => {
    const { client, token } = stack;
    const staff = await buildUser({ roles: ['approver', 'analyst'] });
    const staffToken = await loginAs(client, staff);

    const approved = await waitingApproval();
    expect((await client.post(`/v1/backoffice/operations/${approved}/approve`, { note: 'fine' }, { token: staffToken })).status).to.equal(200);
    expect((await rowsAbout(approved, 'operation.approve')).map((r) => [r.before, r.after, r.request])).to.deep.equal([
      [{ lifecycle_status: 'WAITING_APPROVAL' }, { lifecycle_status: 'PRE_APPROVED' }, { note: 'fine' }],
    ]);

    const cancelled = await waitingApproval();
    const cancel = await client.post(`/v1/backoffice/operations/${cancelled}/cancel`, { reason: 'assignor withdrew' }, { token: staffToken });
    expect(cancel.status, cancel.text).to.equal(200);
    expect(cancel.body.lifecycle_status).to.equal('CANCELLED');
    expect((await rowsAbout(cancelled, 'operation.cancel')).map((r) => [r.actor.id, r.before, r.after, r.request])).to.deep.equal([
      [staff.id, { lifecycle_status: 'WAITING_APPROVAL' }, { lifecycle_status: 'CANCELLED' }, { reason: 'assignor withdrew' }],
    ]);
    const again = await client.post(`/v1/backoffice/operations/${cancelled}/cancel`, { reason: 'twice' }, { token: staffToken });
    expect(again.status).to.equal(409);
    expect((await rowsAbout(cancelled, 'operation.cancel_refused')).map((r) => r.after)).to.deep.equal([{ status: 409, code: 'operation_cannot_be_cancelled' }]);

    const contract = (await createDirect(client, token, directBody({ email: `esign-fail-create-once+audit${Date.now()}@example.com` }))).body.id;
    await untilStatus(client, token, contract, 'CONTRACT_ERROR');
    const resend = await client.post(`/v1/backoffice/operations/${contract}/contract/send-for-signature`, { embedded: true }, { token: staffToken });
    expect(resend.status, resend.text).to.equal(422);
    expect((await client.post(`/v1/backoffice/operations/${contract}/contract/send-for-signature`, {}, { token: staffToken })).status).to.equal(200);
    expect((await rowsAbout(contract, 'operation.send_for_signature')).map((r) => [r.before, r.after, r.request])).to.deep.equal([
      [{ lifecycle_status: 'CONTRACT_ERROR' }, { lifecycle_status: 'CONTRACT_SENT' }, null],
    ]);

    const pix = (await createDirect(client, token, directBody({ email: `pix-reject-once+audit${Date.now()}@example.com` }))).body.id;
    await untilStatus(client, token, pix, 'CONTRACT_SENT');
    await signAll(client, token, pix);
    await untilStatus(client, token, pix, 'DISBURSEMENT_FAILED');
    const retry = await client.post(`/v1/backoffice/operations/${pix}/retry-disbursement`, {}, { token: staffToken });
    expect(retry.status, retry.text).to.equal(200);
    expect((await rowsAbout(pix, 'operation.retry_disbursement')).map((r) => [r.before, r.after, r.request])).to.deep.equal([
      [{ lifecycle_status: 'DISBURSEMENT_FAILED' }, { lifecycle_status: 'DISBURSING' }, null],
    ]);
  });
});
