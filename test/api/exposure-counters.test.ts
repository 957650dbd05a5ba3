import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import { OPEN_TITLE_STATUSES } from '../../domain/title-rules';
import type { TitleStatus } from '../../domain/title-rules';
import { renderOperation } from '../../api/operations/presenter';
import { patientApi, sharedApi, sharedWorker, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { cnpj } from '../support/documents';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { dueIn, receivable } from '../support/simulate';
import { buildAssignor, buildPayable, pay, payment, readPayable } from '../support/payables';
import { simulatePayerPayment, payerPayment, readTitle } from '../support/titles';

const ALL_TITLE_STATUSES: TitleStatus[] = ['WAITING_PAYMENT', 'PARTIALLY_PAID', 'PAID', 'OVERDUE', 'CANCELLED'];

/** Non-zero amounts by `scope:entity id`. */
type Exposures = Record<string, string>;

/** The originator's counters, as the credit limit engine reads them (zeros left out). */
async function counters(originatorId: string): Promise<Exposures> {
  const rows: { scope: string; entity_id: string; open_exposure: string }[] = await testDb()('exposure_counters').where({ originator_id: originatorId });
  return Object.fromEntries(rows.filter((row) => !Money.of(row.open_exposure).isZero()).map((row) => [`${row.scope}:${row.entity_id}`, Money.of(row.open_exposure).toString()]));
}

/** What the counters must hold: Σ outstanding_balance of the open titles, for the originator, each assignor and each payer (zeros left out). */
async function sumsOverOpenTitles(originatorId: string): Promise<Exposures> {
  const open = () => testDb()('titles').where({ originator_id: originatorId }).whereIn('status', [...OPEN_TITLE_STATUSES]);
  const [{ total }] = await open().sum({ total: 'outstanding_balance' });
  const byAssignor: { id: string; total: string }[] = await open().groupBy('assignor_id').select('assignor_id as id').sum({ total: 'outstanding_balance' });
  const byPayer: { id: string; total: string }[] = await open().groupBy('payer_id').select('payer_id as id').sum({ total: 'outstanding_balance' });
  const entries: [string, string | null][] = [
    [`originator:${originatorId}`, total],
    ...byAssignor.map((row): [string, string] => [`assignor:${row.id}`, row.total]),
    ...byPayer.map((row): [string, string] => [`payer:${row.id}`, row.total]),
  ];
  return Object.fromEntries(entries.filter(([, amount]) => amount !== null && !Money.of(amount).isZero()).map(([key, amount]) => [key, Money.of(amount!).toString()]));
}

async function expectExact(originatorId: string): Promise<Exposures> {
  const expected = await sumsOverOpenTitles(originatorId);
  expect(await counters(originatorId)).to.deep.equal(expected);
  return expected;
}

/** Until at least `count` sessions of this database wait for a lock. */
const waitingOnLocks = (count: number) => eventually(async () => {
  const { rows } = await testDb().raw("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
  expect(rows[0].n).to.be.at.least(count);
});

/**
 * The exposure counters (migration 20261121060100_exposure_counters) against the sums they replace,
 * through every write path of titles, and under concurrency. Real api, worker, Temporal and Postgres.
 */
describe('exposure counters', function () {
  this.timeout(180_000);
  let client: ApiClient;
  let backoffice: string;

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    backoffice = await loginAs(client, await buildUser());
  });

  const cancel = (token: string, operationId: string) => eventually(async () => {
    const res = await client.post(`/v1/operations/${operationId}/cancel`, { reason: 'changed our mind' }, { token });
    expect(res.status, res.text).to.equal(200);
  });

  it('counts exactly the statuses of OPEN_TITLE_STATUSES', async () => {
    const { rows } = await testDb().raw(`select s from unnest(array[${ALL_TITLE_STATUSES.map(() => '?').join(', ')}]::text[]) as s where title_counts_as_exposure(s)`, ALL_TITLE_STATUSES);
    expect(rows.map((row: { s: string }) => row.s)).to.have.members([...OPEN_TITLE_STATUSES]);
  });

  describe('through every write path of titles', () => {
    let token: string;
    let originatorId: string;
    let assignorBody: Record<string, unknown>;
    let first: { id: string; assignor_id: string; titles: { id: string; external_id: string }[] };
    let waiting: { id: string };
    let netting: { id: string };
    const payers = { a: cnpj(), b: cnpj(), c: cnpj() };
    const titleOf = (externalId: string) => first.titles.find((t) => t.external_id === externalId)!.id;
    const payerRow = async (document: string) => (await testDb()('payers').where({ originator_id: originatorId, document }).first())!;
    const payablesOf = async () => {
      const res = await client.get(`/v1/assignor-payables?assignor_id=${first.assignor_id}`, { token });
      expect(res.status, res.text).to.equal(200);
      return res.body.items as { id: string; origin_title_id: string; remaining: string; status: string }[];
    };

    before(async () => {
      ({ token, originatorId } = await buildOperationsIntegrator(client, { graceDays: 0 }));
      assignorBody = { cnpj: cnpj(), email: `counters+${randomUUID()}@example.com` };
    });

    it('creation adds each title to its originator, assignor and payer; an operation waiting for approval counts too', async () => {
      const created = await createDirect(client, token, directBody({
        ...assignorBody,
        receivables: [
          receivable({ external_id: 'current', payer_document: payers.a, net_future_value: '20000.00', requested_net_future_value: '20000.00' }),
          receivable({ external_id: 'late-b', payer_document: payers.b, due_date: dueIn(-1), net_future_value: '5000.00', requested_net_future_value: '5000.00' }),
          receivable({ external_id: 'late-c', payer_document: payers.c, due_date: dueIn(-1), net_future_value: '3000.00', requested_net_future_value: '3000.00' }),
        ],
      }));
      expect(created.status, created.text).to.equal(201);
      first = created.body;
      // Another assignor, sharing payer a; above the auto-approval limit, so it waits for a human (and is denied below).
      const other = await createDirect(client, token, directBody({ receivables: [receivable({ payer_document: payers.a, net_future_value: '60000.00', requested_net_future_value: '60000.00' })] }));
      expect(other.body.status, other.text).to.equal('WAITING_APPROVAL');
      waiting = other.body;
      const sums = await expectExact(originatorId);
      expect(sums[`originator:${originatorId}`]).to.equal('88000.00');
      expect(sums[`assignor:${first.assignor_id}`]).to.equal('28000.00');
    });

    it('is unchanged when titles turn OVERDUE (their balance stays open, as the assignor\'s payable)', async () => {
      await untilStatus(client, token, first.id, 'CONTRACT_SENT');
      await signAll(client, token, first.id);
      await untilStatus(client, token, first.id, 'PAID', 90_000);
      await eventually(async () => {
        expect((await readTitle(client, token, titleOf('late-b'))).status).to.equal('OVERDUE');
        expect((await readTitle(client, token, titleOf('late-c'))).status).to.equal('OVERDUE');
        expect(await payablesOf()).to.have.length(2);
      }, 30_000);
      expect((await expectExact(originatorId))[`originator:${originatorId}`]).to.equal('88000.00');
    });

    it('falls with a partial and then a full payer payment', async () => {
      const partial = await simulatePayerPayment(client, token, titleOf('current'), payerPayment({ paid_amount_brl: '2500.00' }));
      expect(partial.body, partial.text).to.include({ title_status: 'PARTIALLY_PAID', remaining: '17500.00' });
      expect((await expectExact(originatorId))[`payer:${(await payerRow(payers.a)).id}`]).to.equal('77500.00');
      const full = await simulatePayerPayment(client, token, titleOf('current'), payerPayment({ paid_amount_brl: '17500.00' }));
      expect(full.body, full.text).to.include({ title_status: 'PAID', remaining: '0.00' });
      expect((await expectExact(originatorId))[`originator:${originatorId}`]).to.equal('68000.00');
    });

    it('follows the overdue titles\' payables: an assignor payment and a discount credit', async () => {
      const late = (await payablesOf()).find((p) => p.origin_title_id === titleOf('late-b'))!;
      const paid = await pay(client, token, late.id, payment({ paid_amount_brl: '1000.00' }));
      expect(paid.status, paid.text).to.equal(201);
      expect((await expectExact(originatorId))[`payer:${(await payerRow(payers.b)).id}`]).to.equal('4000.00');
      const credit = await client.post('/v1/discount-credits', { assignor_id: first.assignor_id, amount_brl: '4500.00', reason: 'Commercial discount' }, { token });
      expect(credit.status, credit.text).to.equal(201);
      expect((await expectExact(originatorId))[`assignor:${first.assignor_id}`]).to.equal('2500.00');
    });

    it('falls when a new operation nets the debt, and the netted debt and the operation\'s own titles come back out when it is cancelled', async () => {
      const before = await sumsOverOpenTitles(originatorId);
      const res = await createDirect(client, token, directBody({ ...assignorBody, receivables: [receivable({ payer_document: payers.b })] }));
      expect(res.status, res.text).to.equal(201);
      expect(res.body.other_debt_discounts).to.equal('2500.00');
      netting = res.body;
      const netted = await expectExact(originatorId);
      expect(netted[`originator:${originatorId}`]).to.equal(Money.of(before[`originator:${originatorId}`]).plus(Money.of('10000.00')).minus(Money.of('2500.00')).toString());
      await cancel(token, netting.id);
      // The release moves the operation, its titles and the payables in one transaction.
      await untilStatus(client, token, netting.id, 'CANCELLED');
      expect(await expectExact(originatorId)).to.deep.equal(before);
    });

    it('falls by the denied operation\'s titles', async () => {
      const denied = await eventually(async () => {
        const res = await client.post(`/v1/backoffice/operations/${waiting.id}/deny`, { reason: 'Concentration' }, { token: backoffice });
        expect(res.status, res.text).to.equal(200);
        return res;
      });
      expect(denied.body.lifecycle_status).to.equal('DENIED');
      await eventually(async () => expect((await expectExact(originatorId))[`originator:${originatorId}`]).to.equal('2500.00'));
    });

    it('falls to zero with a write-off', async () => {
      for (const payable of (await payablesOf()).filter((p) => p.status !== 'PAID')) {
        const res = await client.post(`/v1/assignor-payables/${payable.id}/write-off`, { reason: 'Assignor insolvent' }, { token });
        expect(res.status, res.text).to.equal(200);
      }
      expect(await expectExact(originatorId)).to.deep.equal({});
    });
  });

  describe('under concurrency', () => {
    // Creations queue on the counters here for longer than the default budget lets a request wait on a lock.
    let patient: ApiClient;
    before(async () => { patient = new ApiClient((await patientApi()).url); });

    it('lets exactly three of eight concurrent operations sharing payers through an originator ceiling that fits three, without a deadlock', async () => {
      const { token, originatorId } = await buildOperationsIntegrator(client, { aggregateLimitBrl: Money.of('35000.00') });
      const documents = [cnpj(), cnpj(), cnpj(), cnpj()];
      // Each operation: 10,000.00 over three of the four payers, listed in its own order; some payers are new to all of them.
      const bodies = Array.from({ length: 8 }, (_, i) => directBody({
        receivables: [0, 1, 2].map((k) => receivable({ payer_document: documents[(i + k * (i % 2 ? 1 : 3)) % 4], net_future_value: k === 0 ? '4000.00' : '3000.00', requested_net_future_value: k === 0 ? '4000.00' : '3000.00' })),
      }));
      const answers = await Promise.all(bodies.map((body) => createDirect(patient, token, body)));
      expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).to.deep.equal([201, 201, 201, 403, 403, 403, 403, 403]);
      for (const refusal of answers.filter((a) => a.status === 403)) {
        expect(refusal.body.detail).to.include({ code: 'LIMIT_AGGREGATE_EXPOSURE', open_exposure_brl: '30000.00', requested_brl: '10000.00' });
        expect(refusal.body.detail.scope).to.deep.equal({ type: 'originator' });
      }
      expect((await expectExact(originatorId))[`originator:${originatorId}`]).to.equal('30000.00');
    });

    it('lets a creation wait for the cancellation of an operation that netted the same debt, without a deadlock', async () => {
      const { token, originatorId } = await buildOperationsIntegrator(client);
      const assignor = await buildAssignor(client, token);
      // A debt larger than an operation's liquid value: each operation nets 9,750.00 and leaves it open for the next.
      const payable = await buildPayable(client, token, assignor.id, { amount_brl: '1000000.00' });
      const body = () => directBody({ cnpj: assignor.cnpj, email: assignor.email, receivables: [receivable()] });
      const first = await createDirect(client, token, body());
      expect(first.body.other_debt_discounts, first.text).to.equal('9750.00');
      // Holding the first operation's netting line stops its release after it has cancelled the titles, so the
      // release holds the exposure counters while the second creation comes for the same payable and counters.
      const blocker = await testDb().transaction();
      let second: ReturnType<typeof createDirect>;
      let cancelled: Promise<void>;
      try {
        await blocker('payable_payments').where({ operation_id: first.body.id }).forUpdate();
        cancelled = cancel(token, first.body.id);
        await waitingOnLocks(1);
        second = createDirect(patient, token, body());
        await waitingOnLocks(2);
        await blocker.commit();
      } finally {
        // A failed wait must not leave the release blocked behind the test, holding up the file's end.
        if (!blocker.isCompleted()) await blocker.rollback();
      }
      const created = await second;
      expect(created.status, created.text).to.equal(201);
      expect(created.body.other_debt_discounts).to.equal('9750.00');
      await cancelled;
      await untilStatus(client, token, first.body.id, 'CANCELLED');
      expect(await readPayable(client, token, payable.id)).to.include({ remaining: '990250.00' });
      expect((await expectExact(originatorId))[`originator:${originatorId}`]).to.equal('10000.00');
    });
  });

  it('answers the 201 with the rows a read-back finds, byte for byte (a reused payer keeps its stored name)', async () => {
    const { token, originatorId } = await buildOperationsIntegrator(client);
    const payer = { id: uuidv7(), document: cnpj() };
    await testDb()('payers').insert({ ...payer, originator_id: originatorId, name: 'Stored Name Ltda' });
    const res = await createDirect(client, token, directBody({
      receivables: [
        receivable({ payer_document: payer.document, payer_name: 'Another Name', net_future_value: '40000.00', requested_net_future_value: '30000.00' }),
        receivable({ net_future_value: '30000.00', requested_net_future_value: '30000.00' }),
      ],
    }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status).to.equal('WAITING_APPROVAL');
    expect(res.body.titles[0].payer_name).to.equal('Stored Name Ltda');
    expect(JSON.stringify(res.body)).to.equal(JSON.stringify(await renderOperation(testDb(), originatorId, res.body.id, 'direct_creation')));
  });
});
