import { expect } from 'chai';
import type { HttpEscriturador } from '../../providers/escriturador/client';
import { ApiClient } from '../support/http';
import { cnpj, cpf, formatCnpj, nfeOf } from '../support/documents';
import { buildOperationsIntegrator, createDirect, directBody, startOperationsTest } from '../support/operations';
import { dueIn, receivable } from '../support/simulate';
import { signAll, untilStatus } from '../support/lifecycle';
import { listEvents } from '../support/events';
import { anotherApi, closeApi, testDb } from '../support/stack';
import { buildUser, loginAs } from '../support/factories';
import { eventually } from '../support/webhooks';
import { issueDuplicatas, registerAtSandbox, sandboxEscriturador } from '../support/registration';
import { payerPayment, simulatePayerPayment } from '../support/titles';
import { AWAITING_REGISTRAR_ACTION } from '../../domain/stuck-operations';

type Read = { titles: { id: string; external_id: string; registration: Record<string, any> }[]; [key: string]: any };

/**
 * Before the PIX, after the NF-e check, our acquisition of every NF-e title's duplicata is recorded
 * at the sandbox escriturador (driven through `/v1/sandbox/registrar/transfers` and `/outage`):
 * no PIX leaves before every act is registered.
 */
describe('each duplicata registered at its escriturador before the PIX', function () {
  this.timeout(180_000);
  let client: ApiClient;
  let token: string;
  let holder: string;
  let escriturador: HttpEscriturador;
  before(async () => {
    let originatorId: string;
    ({ client, token, originatorId } = await startOperationsTest());
    holder = await registerAtSandbox(originatorId);
    escriturador = await sandboxEscriturador();
  });
  afterEach(() => client.post('/v1/sandbox/registrar/outage', { seconds: 0 }, { token }));

  /** A direct body: a BOLETO, then an NF-e of the assignor per name in `nfes`, in that order. */
  const operationOf = (...nfes: string[]) => {
    const assignor = cnpj();
    const keys: Record<string, string> = {};
    const receivables = [receivable({ external_id: 'BOLETO', backing_type: 'BOLETO', identifier: 'nosso-numero-7' }), ...nfes.map((externalId) => {
      const nfe = nfeOf(assignor);
      keys[externalId] = nfe.nfe_key;
      return receivable({ external_id: externalId, ...nfe });
    })];
    return { assignor, keys, body: directBody({ cnpj: assignor, receivables }) };
  };
  const created = async (body: Record<string, unknown>) => {
    const res = await createDirect(client, token, body);
    expect(res.status, res.text).to.equal(201);
    await untilStatus(client, token, res.body.id, 'CONTRACT_SENT');
    return res.body.id as string;
  };
  const titleOf = (read: Read, externalId: string) => read.titles.find((t) => t.external_id === externalId)!;
  const noPix = async (operationId: string) => expect(await testDb()('disbursements').where({ operation_id: operationId }).select('id')).to.deep.equal([]);
  const takeAway = async (key: string) => expect((await client.post('/v1/sandbox/registrar/transfers', { nfe_key: key, holder_document: formatCnpj(cnpj()) }, { token })).status).to.equal(200);

  it('pays only once every NF-e title shows registered: the escriturador makes the originator\'s holder hold the duplicata, title.registered comes before operation.paid', async () => {
    const { assignor, keys, body } = operationOf('NF-A', 'NF-B');
    const id = await created(body);
    await signAll(client, token, id);
    const paid: Read = await untilStatus(client, token, id, 'PAID', 90_000);
    expect(titleOf(paid, 'BOLETO').registration.status).to.equal('not_registrable');
    for (const externalId of ['NF-A', 'NF-B']) {
      const { registration, id: titleId } = titleOf(paid, externalId);
      expect(registration).to.include({ status: 'registered', registrar: 'sandbox', negotiation_type: 'aquisicao_com_regresso', refusal_reason: null });
      const [duplicata] = await escriturador.lookup(keys[externalId]);
      expect(duplicata).to.include({ duplicataId: registration.duplicata_id, holderDocument: holder, issuerDocument: assignor });
      const { acts } = await escriturador.status(duplicata.duplicataId);
      expect(acts.map((act) => [act.actId, act.status, act.fromDocument, act.toDocument])).to.deep.equal([[registration.act_id, 'registered', assignor, holder]]);
      expect((await client.get(`/v1/titles/${titleId}`, { token })).body.registration).to.deep.equal(registration);
    }
    const { items } = await listEvents(client, token, `operation_id=${id}&limit=100`);
    const registered = items.filter((e) => e.event_type === 'title.registered');
    expect(registered.map((e) => e.data.external_id).sort()).to.deep.equal(['NF-A', 'NF-B']);
    const paidEvent = items.find((e) => e.event_type === 'operation.paid')!;
    for (const event of registered) {
      expect(Date.parse(event.occurred_at)).to.be.below(Date.parse(paidEvent.occurred_at));
      expect(event.data).to.include({ registrar: 'sandbox', act_id: titleOf(paid, event.data.external_id).registration.act_id });
    }
  });

  it('informs the escriturador of each payment on a registered title; the title paid in full shows its registration settled', async () => {
    const { keys, body } = operationOf('NF-PAID');
    const nfeReceivable = (body.receivables as Record<string, string>[])[1];
    await issueDuplicatas(keys['NF-PAID'], [{ n_dup: '001', vencimento: nfeReceivable.due_date, valor: nfeReceivable.requested_net_future_value }]);
    const id = await created(body);
    await signAll(client, token, id);
    const { id: titleId, registration } = titleOf(await untilStatus(client, token, id, 'PAID', 90_000), 'NF-PAID');
    expect(registration.status).to.equal('registered');
    expect((await simulatePayerPayment(client, token, titleId, payerPayment({ paid_amount_brl: '4000.00' }))).status).to.equal(201);
    await eventually(async () => expect((await escriturador.status(registration.duplicata_id)).duplicata).to.include({ paidAmount: '4000.00', settled: false }), 60_000);
    expect((await client.get(`/v1/titles/${titleId}`, { token })).body.registration.status).to.equal('registered');
    expect((await simulatePayerPayment(client, token, titleId, payerPayment({ paid_amount_brl: '6000.00' }))).status).to.equal(201);
    await eventually(async () => expect((await client.get(`/v1/titles/${titleId}`, { token })).body.registration.status).to.equal('settled'), 60_000);
    expect((await escriturador.status(registration.duplicata_id)).duplicata).to.include({ paidAmount: '10000.00', settled: true });
  });

  it('cancels our act on a title that goes back to the assignor by recourse (OVERDUE): the assignor holds the duplicata again', async () => {
    // An originator whose policy gives no grace days: a title due yesterday is overdue as soon as it is tracked.
    const graceless = await buildOperationsIntegrator(client, { graceDays: 0 });
    await registerAtSandbox(graceless.originatorId);
    const assignor = cnpj();
    const body = directBody({ cnpj: assignor, receivables: [receivable({ external_id: 'CURRENT' }), receivable({ external_id: 'NF-LATE', due_date: dueIn(-1), ...nfeOf(assignor) })] });
    const res = await createDirect(client, graceless.token, body);
    expect(res.status, res.text).to.equal(201);
    const id = res.body.id as string;
    await untilStatus(client, graceless.token, id, 'CONTRACT_SENT');
    await signAll(client, graceless.token, id);
    const { id: titleId, registration } = titleOf(await untilStatus(client, graceless.token, id, 'PAID', 90_000), 'NF-LATE');
    // Registered before the PIX; a title due yesterday may already be back with the assignor when the poll sees PAID.
    expect(registration.act_id).to.be.a('string');
    expect(registration.status).to.be.oneOf(['registered', 'cancelled']);
    await eventually(async () => expect((await client.get(`/v1/titles/${titleId}`, { token: graceless.token })).body.status).to.equal('OVERDUE'), 60_000);
    await eventually(async () => expect((await client.get(`/v1/titles/${titleId}`, { token: graceless.token })).body.registration.status).to.equal('cancelled'), 60_000);
    const { duplicata, acts } = await escriturador.status(registration.duplicata_id);
    expect(duplicata.holderDocument).to.equal(assignor);
    expect(acts.map((act) => [act.actId, act.status])).to.deep.equal([[registration.act_id, 'cancelled']]);
  });

  it('ends the operation CANCELLED with receivable_encumbered, no PIX, when the duplicata is transferred away after creation; the title is named, our other act cancelled', async () => {
    const { assignor, keys, body } = operationOf('NF-FREE', 'NF-TAKEN');
    const id = await created(body);
    await takeAway(keys['NF-TAKEN']);
    await signAll(client, token, id);
    const read: Read = await untilStatus(client, token, id, 'CANCELLED', 90_000);
    expect(read.cancellation_reason).to.equal('receivable_encumbered');
    expect(titleOf(read, 'NF-TAKEN').registration).to.include({ status: 'refused', refusal_reason: 'already_transferred', act_id: null });
    expect(titleOf(read, 'NF-FREE').registration.status).to.equal('cancelled');
    await noPix(id);
    // Nothing of ours left in force: the free duplicata is the assignor's again, its act cancelled.
    const [free] = await escriturador.lookup(keys['NF-FREE']);
    expect(free.holderDocument).to.equal(assignor);
    expect((await escriturador.status(free.duplicataId)).acts.map((act) => act.status)).to.deep.equal(['cancelled']);
    const { items } = await listEvents(client, token, `operation_id=${id}&limit=100`);
    const refused = items.filter((e) => e.event_type === 'title.registration_refused');
    expect(refused).to.have.length(1);
    expect(refused[0].data).to.include({ external_id: 'NF-TAKEN', refusal_reason: 'already_transferred', title_id: titleOf(read, 'NF-TAKEN').id });
    const cancelled = items.filter((e) => e.event_type === 'operation.cancelled');
    expect(cancelled).to.have.length(1);
    expect(cancelled[0].data).to.include({ cancellation_reason: 'receivable_encumbered', actor: 'system:backing-check' });
    expect(cancelled[0].data.reason).to.include('NF-TAKEN');
  });

  it('a cancel after the acts are registered and before any PIX went out (a refused PIX) cancels our acts: the assignor holds the duplicata again', async () => {
    const { assignor, keys, body } = operationOf('NF-BACK');
    const id = await created({ ...body, email: `pix-reject-once+registration${Date.now()}@example.com` });
    await signAll(client, token, id);
    const failed: Read = await untilStatus(client, token, id, 'DISBURSEMENT_FAILED', 90_000);
    expect(titleOf(failed, 'NF-BACK').registration.status).to.equal('registered');
    expect((await client.post(`/v1/operations/${id}/cancel`, { reason: 'deal is off' }, { token })).status).to.equal(200);
    const read: Read = await untilStatus(client, token, id, 'CANCELLED', 60_000);
    expect(read.cancellation_reason).to.equal('requested');
    const { registration } = titleOf(read, 'NF-BACK');
    expect(registration.status).to.equal('cancelled');
    const [duplicata] = await escriturador.lookup(keys['NF-BACK']);
    expect(duplicata.holderDocument).to.equal(assignor);
    expect((await escriturador.status(duplicata.duplicataId)).acts.map((act) => [act.actId, act.status])).to.deep.equal([[registration.act_id, 'cancelled']]);
  });

  it('a cancel whose act the escriturador can no longer cancel (the duplicata negotiated on since, act_superseded) still ends CANCELLED: the act stays registered and the reconciliation reports the holder changed', async () => {
    const { keys, body } = operationOf('NF-ONWARD');
    const id = await created({ ...body, email: `pix-reject-once+superseded${Date.now()}@example.com` });
    await signAll(client, token, id);
    const failed: Read = await untilStatus(client, token, id, 'DISBURSEMENT_FAILED', 90_000);
    const { registration } = titleOf(failed, 'NF-ONWARD');
    expect(registration.status).to.equal('registered');
    // The holder negotiates the duplicata on: our transfer is no longer the last one, and the escriturador refuses its cancellation.
    await takeAway(keys['NF-ONWARD']);
    expect((await client.post(`/v1/operations/${id}/cancel`, { reason: 'deal is off' }, { token })).status).to.equal(200);
    const read: Read = await untilStatus(client, token, id, 'CANCELLED', 60_000);
    expect(read.cancellation_reason).to.equal('requested');
    expect(titleOf(read, 'NF-ONWARD').registration).to.deep.equal(registration);
    const { duplicata, acts } = await escriturador.status(registration.duplicata_id);
    expect(duplicata.holderDocument).to.not.equal(holder);
    expect(acts.find((act) => act.actId === registration.act_id)!.status).to.equal('registered');
    const reconciled = await client.post('/v1/sandbox/registrar/reconcile', undefined, { token });
    expect(reconciled.status, reconciled.text).to.equal(200);
    expect(reconciled.body.mismatches).to.deep.include({ title_id: titleOf(read, 'NF-ONWARD').id, duplicata_id: registration.duplicata_id, act_id: registration.act_id, kind: 'holder_changed_there' });
  });

  it('refuses at creation (422 nfe_issuer_not_registrable), writing nothing, an NF-e its assignor issued as an individual (CPF) when the originator registers at an escriturador, even while the escriturador is down', async () => {
    const person = cpf();
    const body = directBody({ type: 'F', cpf: person, cnpj: undefined, receivables: [receivable({ external_id: 'NF-CPF', ...nfeOf(`000${person}`) })] });
    // Down, the escriturador's lookup refuses nothing and creation would go on: the refusal must not need it.
    expect((await client.post('/v1/sandbox/registrar/outage', { seconds: 600 }, { token })).status).to.equal(200);
    const res = await createDirect(client, token, body);
    expect(res.status, res.text).to.equal(422);
    expect(res.body.detail).to.include({ code: 'nfe_issuer_not_registrable', external_id: 'NF-CPF' });
    expect(res.body.detail.message).to.include('NF-CPF');
    expect(await testDb()('assignors').where({ document: person }).select('id')).to.deep.equal([]);
  });

  it('waits in SIGNED while the escriturador is down, never paying unregistered, then pays once it is back', async () => {
    const { keys, body } = operationOf('NF-WAIT');
    const id = await created(body);
    expect((await client.post('/v1/sandbox/registrar/outage', { seconds: 600 }, { token })).status).to.equal(200);
    await signAll(client, token, id);
    await untilStatus(client, token, id, 'SIGNED');
    // The NF-e check passes and the registration is attempted, refused by the outage, and retried.
    await eventually(async () => expect(await testDb()('nfe_checks').where({ operation_id: id, status: 'passed' }).select('id')).to.have.length(1), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const waiting: Read = (await client.get(`/v1/operations/${id}`, { token })).body;
    expect(waiting.lifecycle_status).to.equal('SIGNED');
    expect(['not_requested', 'requested']).to.include(titleOf(waiting, 'NF-WAIT').registration.status);
    await noPix(id);
    // An api eleven minutes ahead shows it among the stuck with the runbook's action.
    const later = await anotherApi({}, { now: () => new Date(Date.now() + 11 * 60_000) });
    try {
      const laterClient = new ApiClient(later.url);
      const session = await loginAs(laterClient, await buildUser());
      const stuck = await laterClient.get('/v1/backoffice/stuck-operations?limit=200', { token: session });
      expect(stuck.status, stuck.text).to.equal(200);
      const item = stuck.body.items.find((i: { id: string }) => i.id === id);
      expect(item).to.include({ lifecycle_status: 'SIGNED', threshold_seconds: 600, action_route: null });
      expect(item.action).to.equal(AWAITING_REGISTRAR_ACTION);
      expect(item.registration_wait).to.deep.equal({ registrar: 'sandbox', titles: [{ title_id: titleOf(waiting, 'NF-WAIT').id, external_id: 'NF-WAIT', status: 'not_requested' }] });
    } finally {
      await closeApi(later);
    }
    await client.post('/v1/sandbox/registrar/outage', { seconds: 0 }, { token });
    const paid: Read = await untilStatus(client, token, id, 'PAID', 120_000);
    expect(titleOf(paid, 'NF-WAIT').registration.status).to.equal('registered');
    expect((await escriturador.lookup(keys['NF-WAIT']))[0].holderDocument).to.equal(holder);
  });
});
