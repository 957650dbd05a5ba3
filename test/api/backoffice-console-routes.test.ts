import { expect } from 'chai';
import { anotherApi, closeApi } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOriginator, buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody, startOperationsTestWithBackoffice } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { receivable } from '../support/simulate';

const DAY_MS = 24 * 3_600_000;

describe('backoffice routes behind the console', () => {
  let client: ApiClient;
  let token: string;
  let backoffice: string;
  before(async () => {
    ({ client, token, backoffice } = await startOperationsTestWithBackoffice());
  });

  const stuckIds = async (api: ApiClient, session: string) => {
    const res = await api.get('/v1/backoffice/stuck-operations?limit=200', { token: session });
    expect(res.status, res.text).to.equal(200);
    return res.body.items as { id: string; lifecycle_status: string; action_route: string | null; temporal_web_url: string | null; waiting_seconds: number; threshold_seconds: number }[];
  };

  it('lists every originator by name for the queue filter', async () => {
    const id = await buildOriginator({ name: 'Zeta Console Originator' });
    const res = await client.get('/v1/backoffice/originators', { token: backoffice });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.items).to.deep.include({ id, name: 'Zeta Console Originator' });
  });

  it('filters the queue by assignor document (punctuation accepted) and creation range, oldest first, paged', async () => {
    const integrator = await buildOperationsIntegrator(client);
    const waiting = async () => {
      const body = directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] });
      const res = await createDirect(client, integrator.token, body);
      expect(res.status, res.text).to.equal(201);
      return { id: res.body.id as string, cnpj: body.cnpj as string };
    };
    const first = await waiting();
    const second = await waiting();
    const queue = async (params: string) => {
      const res = await client.get(`/v1/backoffice/approval-queue?originator_id=${integrator.originatorId}&${params}`, { token: backoffice });
      expect(res.status, res.text).to.equal(200);
      return { ids: res.body.items.map((i: { id: string }) => i.id), total: res.body.total };
    };
    const punctuated = `${second.cnpj.slice(0, 2)}.${second.cnpj.slice(2, 5)}.${second.cnpj.slice(5, 8)}/${second.cnpj.slice(8, 12)}-${second.cnpj.slice(12)}`;
    expect(await queue(`assignor_document=${encodeURIComponent(punctuated)}`)).to.deep.equal({ ids: [second.id], total: 1 });
    expect(await queue('limit=1&offset=0')).to.deep.equal({ ids: [first.id], total: 2 });
    expect(await queue('limit=1&offset=1')).to.deep.equal({ ids: [second.id], total: 2 });
    const hourAgo = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const hourAhead = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    expect(await queue(`created_from=${hourAgo}&created_to=${hourAhead}`)).to.deep.equal({ ids: [first.id, second.id], total: 2 });
    expect(await queue(`created_from=${hourAhead}`)).to.deep.equal({ ids: [], total: 0 });
    expect(await queue(`created_to=${hourAgo}`)).to.deep.equal({ ids: [], total: 0 });
  });

  it('shows a paid operation whole: parties, contract and signers, PIX attempts, payer payments and timeline, and no sign_url', async () => {
    const body = directBody({ email: `console-detail+${Date.now()}@example.com` });
    const created = await createDirect(client, token, body);
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    await signAll(client, token, id);
    await untilStatus(client, token, id, 'PAID');
    const titleId = created.body.titles[0].id;
    // Title tracking starts just after the operation reads PAID (409 title_not_payable_yet until then); one external_id, one payment.
    await eventually(async () => {
      const payment = await client.post(`/v1/backoffice/titles/${titleId}/payer-payments`, { paid_amount_brl: '100.00', external_id: `boleto-${id}` }, { token: backoffice });
      expect(payment.status, payment.text).to.equal(201);
    });

    const res = await client.get(`/v1/backoffice/operations/${id}`, { token: backoffice });
    expect(res.status, res.text).to.equal(200);
    const page = res.body;
    expect(page.operation).to.include({ id, lifecycle_status: 'PAID' });
    expect(page.operation.titles[0]).to.include({ id: titleId, status: 'PARTIALLY_PAID', outstanding_balance: '9900.00' });
    expect(page.assignor).to.include({ document: body.cnpj, email: body.email, name: body.name });
    expect(page.originator.id).to.be.a('string');
    expect(page.contracts.map((c: { status: string }) => c.status)).to.deep.equal(['SIGNED']);
    expect(page.contract_signers.signers).to.have.length.greaterThan(0);
    expect(page.contract_signers.signers.every((s: { signed: boolean }) => s.signed)).to.equal(true);
    expect(page.disbursements).to.have.length(1);
    expect(page.disbursements[0]).to.include({ status: 'SETTLED', amount: page.operation.opr_net_present_liquid_value });
    expect(page.payer_payments[0]).to.include({ title_id: titleId, amount: '100.00', remaining_after: '9900.00', channel: 'BACKOFFICE' });
    expect(page.timeline.map((e: { event_type: string }) => e.event_type)).to.include.members(['operation.created', 'operation.approved', 'operation.contract_signed', 'operation.paid']);
    expect(res.text).not.to.include('sign_url');
    // Every field the page has served, in its order, dates as ISO text (the page's rows are typed since issue #25).
    expect(Object.keys(page)).to.deep.equal(['operation', 'approvals_required', 'approvals', 'originator', 'assignor', 'approved_at', 'deny_reason',
      'cancel_reason', 'contracts', 'contract_signers', 'disbursements', 'payer_payments', 'timeline', 'temporal_web_url', 'test_clock']);
    expect(Object.keys(page.assignor)).to.deep.equal(['id', 'type', 'document', 'name', 'trade_name', 'email', 'disbursement_method',
      'pix_key_document', 'bank_code', 'bank_agency', 'bank_account', 'bank_account_type']);
    expect(Object.keys(page.contract_signers)).to.deep.equal(['document_status', 'signers', 'signers_error']);
    expect(page.contracts[0]).to.have.keys('id', 'attempt', 'status', 'type', 'is_first_contract', 'embedded', 'signers_count', 'error_code', 'signed_at', 'created_at', 'updated_at');
    expect(page.disbursements[0]).to.have.keys('id', 'attempt', 'amount', 'status', 'settled_amount', 'rejection_reason', 'settled_at', 'created_at', 'updated_at');
    expect(page.payer_payments[0]).to.have.keys('id', 'title_id', 'title_external_id', 'external_id', 'amount', 'remaining_after', 'paid_at', 'channel', 'created_at');
    expect(page.timeline[0]).to.have.keys('event_id', 'event_type', 'occurred_at', 'data', 'actor_email', 'deliveries');
    const isoMoment = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    for (const moment of [page.approved_at, page.contracts[0].signed_at, page.disbursements[0].settled_at, page.payer_payments[0].paid_at, page.timeline[0].occurred_at]) {
      expect(moment).to.match(isoMoment);
    }

    const audited = await client.get(`/v1/backoffice/audit-events?target_id=${titleId}`, { token: backoffice });
    // `after` is the payment as applied; what staff sent is apart, under `request`.
    expect(audited.body.items.map((e: { action: string; after: unknown; request: unknown }) => [e.action, e.after, e.request])).to.deep.equal([
      ['title.payer_payment', {
        payment_id: page.payer_payments[0].id, external_id: `boleto-${id}`, paid_amount_brl: '100.00', title_status: 'PARTIALLY_PAID', remaining: '9900.00',
      }, { paid_amount_brl: '100.00', external_id: `boleto-${id}` }],
    ]);
    const reused = await client.post(`/v1/backoffice/titles/${titleId}/payer-payments`, { paid_amount_brl: '200.00', external_id: `boleto-${id}` }, { token: backoffice });
    expect(reused.status, reused.text).to.equal(409);
    const after = await client.get(`/v1/backoffice/audit-events?target_id=${titleId}`, { token: backoffice });
    expect(after.body.items[0]).to.deep.include({ action: 'title.payer_payment_refused', after: { status: 409, code: 'external_id_reused_with_different_body' } });
  });

  it('names who approved and who denied by e-mail in the timeline, beside the user id the event data keeps', async () => {
    const staff = await buildUser({ roles: ['approver'] });
    const session = await loginAs(client, staff);
    const waiting = async () => {
      const created = await createDirect(client, token, directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] }));
      await untilStatus(client, token, created.body.id, 'WAITING_APPROVAL');
      return created.body.id as string;
    };
    const [approved, denied] = [await waiting(), await waiting()];
    expect((await client.post(`/v1/backoffice/operations/${approved}/approve`, {}, { token: session })).status).to.equal(200);
    expect((await client.post(`/v1/backoffice/operations/${denied}/deny`, { reason: 'documents missing' }, { token: session })).status).to.equal(200);
    const eventOf = async (id: string, type: string) => {
      let event: { data: Record<string, unknown>; actor_email: string | null } | undefined;
      await eventually(async () => {
        const page = await client.get(`/v1/backoffice/operations/${id}`, { token: backoffice });
        event = page.body.timeline.find((e: { event_type: string }) => e.event_type === type);
        expect(event, type).to.not.equal(undefined);
      });
      return event!;
    };
    const approval = await eventOf(approved, 'operation.approved');
    expect(approval.data.approved_by).to.equal(`user:${staff.id}`);
    expect(approval.actor_email).to.equal(staff.email);
    const denial = await eventOf(denied, 'operation.denied');
    expect(denial.actor_email).to.equal(staff.email);
    expect((await eventOf(approved, 'operation.created')).actor_email).to.equal(null);
  });

  it('answers 404 operation_not_found for an unknown operation and refuses a client token', async () => {
    const missing = await client.get('/v1/backoffice/operations/01930000-0000-7000-8000-000000000999', { token: backoffice });
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ detail: 'operation_not_found' });
    const byClient = await client.get('/v1/backoffice/stuck-operations', { token });
    expect(byClient.body).to.deep.equal({ detail: 'invalid_token_type' });
  });

  it('shows DISBURSEMENT_FAILED at once with the retry that unsticks it, and drops it once retried to PAID', async () => {
    const created = await createDirect(client, token, directBody({ email: `pix-reject-once+stuck${Date.now()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    await signAll(client, token, id);
    await untilStatus(client, token, id, 'DISBURSEMENT_FAILED');
    const item = (await stuckIds(client, backoffice)).find((i) => i.id === id);
    expect(item).to.include({ lifecycle_status: 'DISBURSEMENT_FAILED', threshold_seconds: 0, action_route: `POST /v1/backoffice/operations/${id}/retry-disbursement` });
    const detail = await client.get(`/v1/backoffice/operations/${id}`, { token: backoffice });
    expect(detail.body.disbursements[0]).to.include({ status: 'REJECTED' });
    await client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: backoffice });
    await untilStatus(client, token, id, 'PAID');
    expect((await stuckIds(client, backoffice)).map((i) => i.id)).not.to.include(id);
  });

  it('shows CONTRACT_ERROR at once; staff send the contract again and it reaches CONTRACT_SENT, a second time is 409', async () => {
    const created = await createDirect(client, token, directBody({ email: `esign-fail-create-once+stuck${Date.now()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_ERROR');
    const item = (await stuckIds(client, backoffice)).find((i) => i.id === id);
    expect(item).to.include({ lifecycle_status: 'CONTRACT_ERROR', action_route: `POST /v1/backoffice/operations/${id}/contract/send-for-signature` });
    const resend = await client.post(`/v1/backoffice/operations/${id}/contract/send-for-signature`, {}, { token: backoffice });
    expect(resend.status, resend.text).to.equal(200);
    expect(resend.body.id).to.equal(id);
    expect(resend.text).not.to.include('sign_url');
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    const again = await client.post(`/v1/backoffice/operations/${id}/contract/send-for-signature`, {}, { token: backoffice });
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.equal({ detail: 'contract_already_exists' });
  });

  it('shows CONTRACT_SENT only once it has waited two days, with a link to its workflow in Temporal Web', async () => {
    const created = await createDirect(client, token, directBody({ email: `console-slow-signer+${Date.now()}@example.com` }));
    const id = created.body.id;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    expect((await stuckIds(client, backoffice)).map((i) => i.id)).not.to.include(id);

    // Closed with its test: an api two days ahead purges what the rest of the suite still reads as fresh.
    const later = await anotherApi({ TEMPORAL_WEB_URL: 'http://temporal-web.test:8233/' }, { now: () => new Date(Date.now() + 2 * DAY_MS + 60_000) });
    let item: Record<string, any>;
    try {
      const laterClient = new ApiClient(later.url);
      const session = await loginAs(laterClient, await buildUser());
      item = await eventually(async () => {
        const found = (await stuckIds(laterClient, session)).find((i) => i.id === id);
        expect(found, `operation ${id} among the stuck`).not.to.equal(undefined);
        return found!;
      });
    } finally {
      await closeApi(later);
    }
    expect(item).to.include({ lifecycle_status: 'CONTRACT_SENT', threshold_seconds: 2 * 86_400, action_route: null });
    expect(item.waiting_seconds).to.be.at.least(2 * 86_400);
    expect(item.temporal_web_url).to.equal(`http://temporal-web.test:8233/namespaces/default/workflows/operation-${id}`);
  });
});
