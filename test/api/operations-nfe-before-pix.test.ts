import { expect } from 'chai';
import { ApiClient } from '../support/http';
import { cnpj, nfeOf } from '../support/documents';
import { createDirect, directBody, startOperationsTestWithBackoffice } from '../support/operations';
import { STUCK_RULES } from '../../domain/stuck-operations';
import { receivable } from '../support/simulate';
import { signAll, untilStatus } from '../support/lifecycle';
import { listEvents } from '../support/events';
import { testDb } from '../support/stack';
import { eventually } from '../support/webhooks';
import { setSandboxNfe } from '../support/sefaz';

/**
 * Every NF-e is checked at SEFAZ (the sandbox's, driven through `/v1/sandbox/nfe/{key}` and
 * `/v1/sandbox/sefaz/outage`) again right before the PIX: what changed after creation stops the
 * money, and SEFAZ down holds it.
 */
describe('each NF-e checked at SEFAZ before the PIX', function () {
  this.timeout(150_000);
  let client: ApiClient;
  let token: string;
  let staffToken: string;
  before(async () => ({ client, token, backoffice: staffToken } = await startOperationsTestWithBackoffice()));
  afterEach(() => client.post('/v1/sandbox/sefaz/outage', { seconds: 0 }, { token }));

  const setNfe = (key: string, status: string, payerEvent: string | null = null) => setSandboxNfe(client, token, key, status, payerEvent);
  /** A direct body whose second receivable carries a fresh NF-e of the assignor (authorized when created). */
  const withNfe = () => {
    const assignor = cnpj();
    const nfe = nfeOf(assignor);
    return { key: nfe.nfe_key, body: directBody({ cnpj: assignor, receivables: [receivable(), receivable({ external_id: 'NF-CHECKED', ...nfe })] }) };
  };
  const created = async (body: Record<string, unknown>) => {
    const res = await createDirect(client, token, body);
    expect(res.status, res.text).to.equal(201);
    await untilStatus(client, token, res.body.id, 'CONTRACT_SENT');
    return res.body.id as string;
  };
  /** The NF-e receivable's check in the operation read. */
  const checkOf = (read: { titles: { external_id: string; nfe_check: Record<string, unknown> }[] }) => read.titles.find((t) => t.external_id === 'NF-CHECKED')!.nfe_check;
  const noPix = async (operationId: string) => expect(await testDb()('disbursements').where({ operation_id: operationId }).select('id')).to.deep.equal([]);

  for (const [change, payerEvent, reason] of [['cancelled', null, 'nfe_cancelled'], ['authorized', 'not_performed', 'nfe_disowned_by_payer']] as const) {
    it(`cancels the operation with ${reason}, no PIX, when after creation the key is ${change}${payerEvent ? ` with the payer's ${payerEvent}` : ''}; the claim on the key is released`, async () => {
      const { key, body } = withNfe();
      const id = await created(body);
      await setNfe(key, change, payerEvent);
      await signAll(client, token, id);
      const read = await untilStatus(client, token, id, 'CANCELLED', 60_000);
      expect(read.cancellation_reason).to.equal(reason);
      const check = checkOf(read);
      expect(check).to.include({ status: 'refused', cstat: change === 'cancelled' ? '101' : '138', payer_event: payerEvent });
      expect(check.xmotivo).to.be.a('string').and.not.equal('');
      expect(Number.isNaN(Date.parse(String(check.checked_at)))).to.equal(false);
      expect(read.titles.find((t: { external_id: string }) => t.external_id !== 'NF-CHECKED').nfe_check).to.deep.equal({
        status: 'not_applicable', reason: null, cstat: null, xmotivo: null, payer_event: null, payer_events: null, checked_at: null,
      });
      await noPix(id);
      const { items } = await listEvents(client, token, `object_id=${id}&type=operation.cancelled`);
      expect(items).to.have.length(1);
      expect(items[0].data).to.include({ cancellation_reason: reason, actor: 'system:backing-check' });
      expect(items[0].data.reason).to.include(key);
      // Released: once SEFAZ authorizes it again, the same receivable is anticipated anew.
      await setNfe(key, 'authorized');
      expect((await createDirect(client, token, body)).status).to.equal(201);
    });
  }

  it('a cancel asked for says `requested`', async () => {
    const { body } = withNfe();
    const id = await created(body);
    expect((await client.post(`/v1/operations/${id}/cancel`, { reason: 'deal is off' }, { token })).status).to.equal(200);
    expect((await untilStatus(client, token, id, 'CANCELLED')).cancellation_reason).to.equal('requested');
  });

  it('SEFAZ down at payout time neither refuses nor pays: the operation waits in SIGNED, then pays once SEFAZ is back', async () => {
    const { key, body } = withNfe();
    const id = await created(body);
    expect((await client.post('/v1/sandbox/sefaz/outage', { seconds: 600 }, { token })).status).to.equal(200);
    await signAll(client, token, id);
    await untilStatus(client, token, id, 'SIGNED');
    // Held while SEFAZ answers 109 (the check is asked at least twice meanwhile): no verdict, no PIX.
    await eventually(async () => expect(await testDb()('nfe_checks').where({ operation_id: id, cstat: '109' }).select('id')).to.have.length.at.least(2), 60_000);
    const waiting = (await client.get(`/v1/operations/${id}`, { token })).body;
    expect(waiting.lifecycle_status).to.equal('SIGNED');
    expect(checkOf(waiting)).to.include({ status: 'pending', cstat: '109' });
    await noPix(id);
    // The stuck view shows it at once with the runbook's action and SEFAZ's last answer.
    const stuck = (await client.get('/v1/backoffice/stuck-operations?limit=200', { token: staffToken })).body.items.find((op: { id: string }) => op.id === id);
    expect(stuck).to.include({ lifecycle_status: 'SIGNED', action: STUCK_RULES.find((rule) => rule.status === 'SIGNED')!.action });
    expect(stuck.nfe_check).to.include({ nfe_key: key, reason: null, cstat: '109' });
    await client.post('/v1/sandbox/sefaz/outage', { seconds: 0 }, { token });
    const paid = await untilStatus(client, token, id, 'PAID', 90_000);
    expect(paid.cancellation_reason).to.equal(null);
    expect(checkOf(paid)).to.include({ status: 'passed', cstat: '100', payer_event: null });
    expect(await testDb()('nfe_checks').where({ operation_id: id, nfe_key: key, status: 'passed' }).select('id')).to.have.length(1);
  });
});

