import { expect } from 'chai';
import { cnpj, cpf, nfeOf } from '../support/documents';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody, startOperationsTest } from '../support/operations';
import { patientApi, testDb } from '../support/stack';
import { eventually } from '../support/webhooks';
import { receivable } from '../support/simulate';
import { rowsOf } from '../support/operation-checks';
import { anticipationBody, postStock, requestAnticipation, stockBody, stocked, stockItem } from '../support/stock';

/** docs/decisions.md, "Double assignment": NF-e keys checked, and a receivable assigned once. */
describe('double assignment: NF-e keys and the receivable guard', () => {
  let client: ApiClient;
  before(async () => ({ client } = await startOperationsTest()));

  /** A fresh originator (and its own assignor company): each test's claims are its own. */
  async function integrator(policy: Parameters<typeof buildOperationsIntegrator>[1] = {}) {
    const { token, originatorId } = await buildOperationsIntegrator(client, policy);
    return { token, originatorId, assignor: cnpj() };
  }

  const direct = (assignor: string, items: Record<string, unknown>[]) => directBody({ cnpj: assignor, receivables: items });
  /** Until `count` sessions wait on a lock in a statement like `pattern`. */
  async function untilWaiting(count: number, pattern: string) {
    for (let i = 0; i < 400; i += 1) {
      const { rows } = await testDb().raw("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike ?", [pattern]);
      if (rows[0].n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`fewer than ${count} sessions ever waited in ${pattern}`);
  }

  const detailOf = (res: { body: { detail: unknown } }) => res.body.detail as Record<string, unknown>;

  async function cancelled(token: string, operationId: string) {
    await eventually(async () => {
      const res = await client.post(`/v1/operations/${operationId}/cancel`, { reason: 'changed our mind' }, { token });
      expect(res.status, res.text).to.equal(200);
    });
    await eventually(async () => expect(await testDb()('titles').where({ operation_id: operationId, status: 'CANCELLED' }).count({ n: '*' }).first()).to.deep.include({ n: 1 }), 20_000);
  }

  describe('NF-e key validation', () => {
    const broken: [string, (issuer: string) => Record<string, unknown>, string, string][] = [
      ['not 44 digits', (issuer) => ({ nfe_key: nfeOf(issuer).nfe_key.slice(1) }), 'NFE_KEY_MALFORMED', 'nfe_key'],
      ['a wrong check digit', (issuer) => {
        const key = nfeOf(issuer).nfe_key;
        return { nfe_key: `${key.slice(0, 43)}${(Number(key[43]) + 1) % 10}` };
      }, 'NFE_KEY_CHECK_DIGIT_MISMATCH', 'nfe_key'],
      ['model 57', (issuer) => ({ nfe_key: nfeOf(issuer, { model: '57' }).nfe_key }), 'NFE_KEY_MODEL_NOT_ACCEPTED', 'nfe_key'],
      ['another issuer', () => ({ nfe_key: nfeOf(cnpj()).nfe_key }), 'NFE_KEY_ISSUER_MISMATCH', 'nfe_key'],
      ['another number', (issuer) => ({ ...nfeOf(issuer), nfe_number: '1' }), 'NFE_NUMBER_MISMATCH', 'nfe_number'],
      ['another serie', (issuer) => ({ ...nfeOf(issuer), nfe_serie: '7' }), 'NFE_SERIE_MISMATCH', 'nfe_serie'],
      ['an issue date of another month', (issuer) => ({ ...nfeOf(issuer), nfe_issue_date: '2026-10-31' }), 'NFE_ISSUE_DATE_MISMATCH', 'nfe_issue_date'],
    ];

    for (const [what, fields, code, field] of broken) {
      it(`refuses ${what} with 422 ${code} on direct creation, stock registration and simulation, writing nothing`, async () => {
        const { token, originatorId, assignor } = await integrator();
        const before = await rowsOf(originatorId);
        const onDirect = await createDirect(client, token, direct(assignor, [receivable({ external_id: 'OK' }), receivable({ external_id: 'BAD', ...fields(assignor) })]));
        expect(onDirect.status, onDirect.text).to.equal(422);
        expect(detailOf(onDirect)).to.include({ code, external_id: 'BAD', field }).and.to.have.deep.property('loc', ['body', 'receivables', 1, field]);

        const onStock = await postStock(client, token, stockBody({ cnpj: assignor, items: [stockItem({ external_id: 'BAD', ...fields(assignor) })] }));
        expect(onStock.status, onStock.text).to.equal(422);
        expect(detailOf(onStock)).to.include({ code, external_id: 'BAD', field }).and.to.have.deep.property('loc', ['body', 'items', 0, field]);

        const onSimulate = await client.post('/v1/simulate', { assignor_document: assignor, receivables: [receivable({ external_id: 'BAD', ...fields(assignor) })] }, { token });
        expect(onSimulate.status, onSimulate.text).to.equal(422);
        expect(detailOf(onSimulate)).to.include({ code, external_id: 'BAD', field });
        expect(await rowsOf(originatorId)).to.deep.equal(before);
      });
    }

    it('simulates without an assignor comparing everything but the issuer', async () => {
      const { token } = await integrator();
      const foreign = nfeOf(cnpj());
      const res = await client.post('/v1/simulate', { receivables: [receivable(foreign)] }, { token });
      expect(res.status, res.text).to.equal(200);
      const wrong = await client.post('/v1/simulate', { receivables: [receivable({ ...foreign, nfe_serie: '9' })] }, { token });
      expect(detailOf(wrong)).to.include({ code: 'NFE_SERIE_MISMATCH' });
    });

    it('checks a CPF assignor against the key\'s issuer field as 000 + CPF', async () => {
      const { token } = await integrator();
      const person = cpf();
      const body = directBody({ type: 'F', cpf: person, cnpj: undefined, receivables: [receivable(nfeOf(`000${person}`))] });
      const res = await createDirect(client, token, body);
      expect(res.status, res.text).to.equal(201);
    });

    it('checks a PATCH on the NF-e fields the item ends up with, and stores the key without spaces', async () => {
      const { token, assignor } = await integrator();
      const nfe = nfeOf(assignor);
      const [item] = await stocked(client, token, stockBody({ cnpj: assignor, items: [stockItem({ nfe_number: nfe.nfe_number })] }));
      const mismatched = await client.patch(`/v1/stock/${item.id}`, { nfe_key: nfeOf(assignor).nfe_key }, { token });
      expect(mismatched.status, mismatched.text).to.equal(422);
      expect(detailOf(mismatched)).to.include({ code: 'NFE_NUMBER_MISMATCH', external_id: item.external_id, field: 'nfe_number' });
      const spaced = nfe.nfe_key.replace(/(.{4})/g, '$1 ').trim();
      const ok = await client.patch(`/v1/stock/${item.id}`, { nfe_key: spaced, nfe_serie: nfe.nfe_serie }, { token });
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body).to.include({ nfe_key: nfe.nfe_key, nfe_number: nfe.nfe_number });
    });
  });

  describe('the same originator', () => {
    it('refuses a receivable an open operation already holds with 409 receivable_already_assigned naming the operation, writing nothing', async () => {
      const { token, originatorId, assignor } = await integrator();
      const nfe = nfeOf(assignor);
      const first = await createDirect(client, token, direct(assignor, [receivable({ external_id: 'FIRST', ...nfe })]));
      expect(first.status, first.text).to.equal(201);
      const before = await rowsOf(originatorId);
      const again = await createDirect(client, token, direct(assignor, [receivable(), receivable({ external_id: 'AGAIN', ...nfe })]));
      expect(again.status, again.text).to.equal(409);
      expect(detailOf(again)).to.include({ code: 'receivable_already_assigned', external_id: 'AGAIN', operation_id: first.body.id, stock_item_id: null });
      expect(await rowsOf(originatorId)).to.deep.equal(before);
      // Stock registration is refused alike.
      const stockAgain = await postStock(client, token, stockBody({ cnpj: assignor, items: [stockItem({ external_id: 'S', ...nfe })] }));
      expect(stockAgain.status, stockAgain.text).to.equal(409);
      expect(detailOf(stockAgain)).to.include({ code: 'receivable_already_assigned', external_id: 'S', operation_id: first.body.id });
    });

    it('refuses a direct creation of a receivable waiting in stock, naming the stock item', async () => {
      const { token, assignor } = await integrator();
      const nfe = nfeOf(assignor);
      const [item] = await stocked(client, token, stockBody({ cnpj: assignor, items: [stockItem(nfe)] }));
      const res = await createDirect(client, token, direct(assignor, [receivable({ external_id: 'D', ...nfe })]));
      expect(res.status, res.text).to.equal(409);
      expect(detailOf(res)).to.include({ code: 'receivable_already_assigned', external_id: 'D', stock_item_id: item.id, operation_id: null });
    });

    it('without a key, knows a receivable by backing type, payer, due date and NF-e number and serie or identifier', async () => {
      const { token, assignor } = await integrator();
      const payer = cnpj();
      const boleto = { backing_type: 'BOLETO', payer_document: payer, identifier: 'nosso-numero-42' };
      expect((await createDirect(client, token, direct(assignor, [receivable(boleto)]))).status).to.equal(201);
      const same = await createDirect(client, token, direct(assignor, [receivable({ ...boleto, external_id: 'B2' })]));
      expect(detailOf(same)).to.include({ code: 'receivable_already_assigned', external_id: 'B2' });
      const numbered = { payer_document: payer, nfe_number: '00077', nfe_serie: '2' };
      expect((await postStock(client, token, stockBody({ cnpj: assignor, items: [stockItem(numbered)] }))).status).to.equal(201);
      const sameInvoice = await createDirect(client, token, direct(assignor, [receivable({ ...numbered, nfe_number: '77', external_id: 'N2' })]));
      expect(detailOf(sameInvoice)).to.include({ code: 'receivable_already_assigned', external_id: 'N2' });
      // Another due date is another receivable of the same payer.
      expect((await createDirect(client, token, direct(assignor, [receivable({ ...boleto, due_date: '2027-01-15' })]))).status).to.equal(201);
    });

    it('refuses the same invoice twice in one request before anything is written', async () => {
      const { token, assignor } = await integrator();
      const nfe = nfeOf(assignor);
      const res = await createDirect(client, token, direct(assignor, [receivable(nfe), receivable(nfe)]));
      expect(res.status, res.text).to.equal(422);
      expect(detailOf(res)).to.include({ code: 'validation_error' });
      expect((detailOf(res).errors as { loc: unknown[] }[])[0].loc).to.deep.equal(['body', 'receivables', 1, 'nfe_key']);
    });

    it('lets the partial-anticipation remainder be anticipated (the same receivable continuing), and holds the invoice while either is open', async () => {
      const { token, assignor } = await integrator();
      const nfe = nfeOf(assignor);
      const op = await createDirect(client, token, direct(assignor, [receivable({ ...nfe, requested_net_future_value: '6000.00' })]));
      expect(op.status, op.text).to.equal(201);
      const [remainder] = await testDb()('stock_items').where({ source_operation_id: op.body.id });
      const third = await createDirect(client, token, direct(assignor, [receivable({ external_id: 'THIRD', ...nfe })]));
      expect(detailOf(third)).to.include({ code: 'receivable_already_assigned', stock_item_id: remainder.id, operation_id: op.body.id });

      expect((await client.patch(`/v1/stock/${remainder.id}`, { pre_authorized: true }, { token })).status).to.equal(200);
      const anticipated = await requestAnticipation(client, token, anticipationBody([remainder.id], '4000.00'));
      expect(anticipated.status, anticipated.text).to.equal(201);
      expect(anticipated.body.needs_backoffice_approval).to.equal(false);
    });

    it('releases the receivables of a cancelled operation: the invoice can be assigned again', async () => {
      const { token, assignor } = await integrator();
      const nfe = nfeOf(assignor);
      const first = await createDirect(client, token, direct(assignor, [receivable(nfe)]));
      expect(first.status, first.text).to.equal(201);
      await cancelled(token, first.body.id);
      const again = await createDirect(client, token, direct(assignor, [receivable(nfe)]));
      expect(again.status, again.text).to.equal(201);
    });

    it('releases the receivables of a denied operation', async () => {
      const { token, assignor } = await integrator();
      const nfe = nfeOf(assignor);
      const op = await createDirect(client, token, direct(assignor, [receivable({ ...nfe, net_future_value: '70000.00', requested_net_future_value: '70000.00' })]));
      expect(op.body.status).to.equal('WAITING_APPROVAL');
      const staff = await loginAs(client, await buildUser());
      await eventually(async () => {
        const res = await client.post(`/v1/backoffice/operations/${op.body.id}/deny`, { reason: 'payer concentration' }, { token: staff });
        expect(res.status, res.text).to.equal(200);
      });
      await eventually(async () => expect((await createDirect(client, token, direct(assignor, [receivable(nfe)]))).status).to.equal(201), 20_000);
    });

    it('releases a stock item that is cancelled, and follows an item back to stock when its operation is cancelled', async () => {
      const { token, assignor } = await integrator();
      const nfe = nfeOf(assignor);
      const [item] = await stocked(client, token, stockBody({ cnpj: assignor, items: [stockItem(nfe)] }));
      const op = await requestAnticipation(client, token, anticipationBody([item.id], '10000.00'));
      expect(op.status, op.text).to.equal(201);
      const whileAnticipated = await createDirect(client, token, direct(assignor, [receivable(nfe)]));
      expect(detailOf(whileAnticipated)).to.include({ code: 'receivable_already_assigned', operation_id: op.body.id, stock_item_id: null });
      await cancelled(token, op.body.id);
      const backInStock = await createDirect(client, token, direct(assignor, [receivable(nfe)]));
      expect(detailOf(backInStock)).to.include({ code: 'receivable_already_assigned', stock_item_id: item.id, operation_id: null });
      expect((await client.post(`/v1/stock/${item.id}/cancel`, undefined, { token })).status).to.equal(200);
      expect((await createDirect(client, token, direct(assignor, [receivable(nfe)]))).status).to.equal(201);
    });

    it('gives exactly one 201 to N concurrent creations of the same invoice, and N − 1 409s, all of them reaching the claim together', async () => {
      const { token, originatorId, assignor } = await integrator();
      const nfe = nfeOf(assignor);
      const N = 6;
      // An open transaction holding the invoice's claim makes every creation wait on it; its rollback lets them race.
      const blocker = await testDb().transaction();
      await blocker('receivable_claims').insert({ originator_id: originatorId, fingerprint: `nfe:${nfe.nfe_key}` });
      // Six creations wait on the claim for longer than the default budget lets a request wait on a lock.
      const patient = new ApiClient((await patientApi()).url);
      const pending = Promise.all(Array.from({ length: N }, (_, i) => createDirect(patient, token, direct(assignor, [receivable({ external_id: `C${i}`, ...nfe })]))));
      await untilWaiting(N, '%insert into receivable_claims%');
      await blocker.rollback();
      const answers = await pending;
      expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).to.deep.equal([201, ...Array(N - 1).fill(409)]);
      const winner = answers.find((a) => a.status === 201)!;
      for (const loser of answers.filter((a) => a.status === 409)) expect(detailOf(loser)).to.include({ code: 'receivable_already_assigned', operation_id: winner.body.id });
      expect(await testDb()('operations').where({ originator_id: originatorId }).count({ n: '*' }).first()).to.deep.equal({ n: 1 });
    });
  });

  describe('another originator holding the same NF-e key', () => {
    /** Originator A assigns the invoice first; B (with `policy`) then sends the same one. */
    async function heldByAnother(policy: Parameters<typeof buildOperationsIntegrator>[1]) {
      const a = await integrator();
      const nfe = nfeOf(a.assignor);
      const first = await createDirect(client, a.token, directBody({ cnpj: a.assignor, name: 'Cedente Unico Ltda', receivables: [receivable(nfe)] }));
      expect(first.status, first.text).to.equal(201);
      const b = await integrator(policy);
      return { a, b, nfe, first: first.body };
    }

    it('with double_assignment refuse: 409 receivable_assigned_elsewhere that names nothing of the other originator', async () => {
      const { a, b, nfe, first } = await heldByAnother({ doubleAssignment: 'refuse' });
      const before = await rowsOf(b.originatorId);
      const res = await createDirect(client, b.token, directBody({ cnpj: a.assignor, receivables: [receivable({ external_id: 'MINE', ...nfe })] }));
      expect(res.status, res.text).to.equal(409);
      expect(res.body).to.deep.equal({ detail: { code: 'receivable_assigned_elsewhere', external_id: 'MINE', message: 'Receivable MINE: this NF-e is already assigned elsewhere' } });
      for (const theirs of [a.originatorId, first.id, first.display_number, first.titles[0].id, first.titles[0].external_id]) expect(res.text).to.not.include(theirs);
      expect(await rowsOf(b.originatorId)).to.deep.equal(before);
      const stock = await postStock(client, b.token, stockBody({ cnpj: a.assignor, items: [stockItem({ external_id: 'MINE', ...nfe })] }));
      expect(stock.status, stock.text).to.equal(409);
      expect(detailOf(stock)).to.deep.equal({ code: 'receivable_assigned_elsewhere', external_id: 'MINE', message: 'Receivable MINE: this NF-e is already assigned elsewhere' });
    });

    it('with double_assignment review (the default): created but WAITING_APPROVAL, the reason in the approval queue, operation.flagged recorded', async () => {
      const { a, b, nfe, first } = await heldByAnother({});
      // Well within B's auto-approval limit: only the flag keeps it from APPROVED_DIRECT.
      const res = await createDirect(client, b.token, directBody({ cnpj: a.assignor, receivables: [receivable({ external_id: 'MINE', ...nfe, net_future_value: '100.00', requested_net_future_value: '100.00' })] }));
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ status: 'WAITING_APPROVAL', needs_backoffice_approval: true });
      for (const theirs of [a.originatorId, first.id, first.display_number]) expect(res.text).to.not.include(theirs);

      const staff = await loginAs(client, await buildUser());
      const queue = await client.get(`/v1/backoffice/approval-queue?originator_id=${b.originatorId}`, { token: staff });
      expect(queue.status, queue.text).to.equal(200);
      expect(queue.body.items).to.have.length(1);
      expect(queue.body.items[0]).to.deep.include({ id: res.body.id });
      expect(queue.body.items[0].review_reason).to.deep.include({ code: 'receivable_assigned_elsewhere', external_ids: ['MINE'] });

      const [event] = await testDb()('events').where({ originator_id: b.originatorId, event_type: 'operation.flagged' });
      expect(event.data).to.deep.include({ operation_id: res.body.id, display_number: res.body.display_number, reason: 'receivable_assigned_elsewhere', external_ids: ['MINE'] });
      expect(JSON.stringify(event.data)).to.not.include(a.originatorId).and.to.not.include(first.id);
      // A's own operation is not flagged: it came first.
      expect(await testDb()('events').where({ originator_id: a.originatorId, event_type: 'operation.flagged' })).to.have.length(0);
    });

    it('with review, flags a stock anticipation of an item whose key another originator holds', async () => {
      const { a, b, nfe } = await heldByAnother({});
      const [item] = await stocked(client, b.token, stockBody({ cnpj: a.assignor, items: [stockItem({ ...nfe, net_future_value: '100.00' })] }));
      const op = await requestAnticipation(client, b.token, anticipationBody([item.id], '100.00'));
      expect(op.status, op.text).to.equal(201);
      expect(op.body).to.include({ lifecycle_status: 'WAITING_APPROVAL', needs_backoffice_approval: true });
      expect(await testDb()('events').where({ originator_id: b.originatorId, event_type: 'operation.flagged' })).to.have.length(1);
    });
  });
});
