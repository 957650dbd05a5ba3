import { expect } from 'chai';
import fc from 'fast-check';
import { anotherApi, testDb } from '../support/stack';
import { scrape, valueOf } from '../support/metrics';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { receivable } from '../support/simulate';
import { OperationsRepository } from '../../db/repositories/operations';
import { presentOperation } from '../../api/operations/presenter';

/** Any text Postgres stores (no NUL), escapes and astral characters included. */
const text = fc.string({ unit: 'binary', maxLength: 12 }).map((value) => value.replace(/\u0000/g, ''));
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
/** A decimal of `scale` places that fits `numeric(precision, scale)`, as Postgres would print it. */
const decimal = (precision: number, scale: number) => fc.bigInt({ min: -(10n ** BigInt(precision)) + 1n, max: 10n ** BigInt(precision) - 1n }).map((units) => {
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  return `${units < 0n ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
});
const money = decimal(18, 2);
/** An instant with microseconds (the presenter keeps milliseconds). */
const instant = fc.tuple(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: 0, max: 999 }))
  .map(([date, micros]) => `${date.toISOString().slice(0, -1)}${String(micros).padStart(3, '0')}Z`);
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

const operationColumns = fc.record({
  display_number: text, product_id: maybe(text), fee_hierarchy: text, contract_type: text, disbursement_method: maybe(text),
  lifecycle_status: text,
  opr_gross_future_value: money, opr_net_future_value: money, opr_requested_net_future_value: money, opr_present_value_discount: money,
  opr_net_liquid_value: money, other_debt_discounts: money, opr_net_present_liquid_value: money,
  average_days_in_advance: int32, weighted_avg_days: decimal(12, 4), floating_days: int32,
  cet_monthly_pct: maybe(decimal(12, 6)), cet_annual_pct: maybe(decimal(12, 6)), signers_count: int32,
  needs_backoffice_approval: fc.boolean(), embedded_signature: fc.boolean(), has_partial_anticipations: fc.boolean(),
  created_at: instant, updated_at: instant,
}, { requiredKeys: [] });

const titleColumns = fc.record({
  external_id: text, identifier: maybe(text), backing_type: text, status: text, fee_source: text,
  gross_future_value: money, net_future_value: money, requested_net_future_value: money, present_value_discount: money,
  net_present_liquid_value: money, outstanding_balance: money, paid_amount: money, fixed_discount_brl: maybe(money),
  due_date: fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  qty_days_advanced: int32, monthly_rate_pct: maybe(decimal(9, 4)), discount_pct: maybe(decimal(9, 4)), is_partial: fc.boolean(),
  created_at: instant, updated_at: instant,
}, { requiredKeys: [] });

const payerColumns = fc.record({ name: text, document: text }, { requiredKeys: [] });

const defined = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined));

/**
 * The page as the list route wrote it before its reads were kept rendered: every operation through
 * the presenter and the whole page through one JSON.stringify, in the contract's order.
 */
async function presentedPage(originatorId: string, limit: number, offset: number): Promise<string> {
  const db = testDb();
  const repository = new OperationsRepository(db, originatorId);
  const ids: string[] = await db('operations').where({ originator_id: originatorId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(limit).offset(offset).pluck('id');
  const [{ count }] = await db('operations').where({ originator_id: originatorId }).count<{ count: string }[]>({ count: '*' });
  const items = [];
  for (const id of ids) items.push(presentOperation((await repository.byId(id))!, await repository.titlesOf([id]), 'read'));
  return JSON.stringify({ items, total: Number(count), limit, offset });
}

/**
 * Polls until the route answers what `expected` reads from Postgres right after the answer (a
 * change reaches the kept reads by NOTIFY, within milliseconds). Read after each answer, not once:
 * in a full run the shared worker is up and these operations' workflows, started late behind the
 * suite's backlog, may still be writing their rows while the property writes its own.
 */
async function answersWithin(client: ApiClient, token: string, path: string, expected: () => Promise<string>, budgetMs = 3_000): Promise<void> {
  const started = Date.now();
  let last = '';
  let wanted = '';
  while (Date.now() - started < budgetMs) {
    const res = await client.get(path, { token });
    expect(res.status, res.text).to.equal(200);
    if ((last = res.text) === (wanted = await expected())) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(last).to.equal(wanted);
}

/**
 * Issue #27: `GET /v1/operations` answers from each operation's kept rendering. Its bytes must stay
 * those of the presenter serialised whole, for any value a row can hold, so the answers are read
 * from an api that sends them as they are (no response validation re-serialising them).
 */
describe('GET /v1/operations, byte for byte', () => {
  let client: ApiClient;
  let metricsUrl: string;
  let token: string;
  let originatorId: string;
  let operations: { id: string; titles: string[]; payers: string[] }[];

  before(async () => {
    const api = await anotherApi({ OPENAPI_VALIDATE_RESPONSES: 'false' });
    client = new ApiClient(api.url);
    metricsUrl = api.metricsUrl;
    ({ token, originatorId } = await buildOperationsIntegrator(client));
    operations = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await createDirect(client, token, directBody({ receivables: [receivable(), receivable(), receivable()] }));
      expect(res.status, res.text).to.equal(201);
      const titles = await testDb()('titles').where({ operation_id: res.body.id }).orderBy('id').select('id', 'payer_id');
      operations.push({ id: res.body.id, titles: titles.map((t) => t.id), payers: titles.map((t) => t.payer_id) });
    }
  });

  it('answers what the presenter serialised whole would, over random rows, and each change at once', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(operationColumns, { minLength: 3, maxLength: 3 }), fc.array(titleColumns, { minLength: 9, maxLength: 9 }), fc.array(payerColumns, { minLength: 9, maxLength: 9 }),
      async (ops, titles, payers) => {
        await testDb().transaction(async (trx) => {
          for (const [at, op] of operations.entries()) {
            // Unique columns get the row's own suffix.
            const row = defined({ ...ops[at], display_number: ops[at].display_number === undefined ? undefined : `${ops[at].display_number}·${op.id}` });
            if (Object.keys(row).length > 0) await trx('operations').where({ id: op.id }).update(row);
            for (const [index, titleId] of op.titles.entries()) {
              const title = titles[at * 3 + index];
              const titleRow = defined({ ...title, external_id: title.external_id === undefined ? undefined : `${title.external_id}·${index}` });
              if (Object.keys(titleRow).length > 0) await trx('titles').where({ id: titleId }).update(titleRow);
              const payer = payers[at * 3 + index];
              const payerRow = defined({ ...payer, document: payer.document === undefined ? undefined : `${payer.document}·${titleId}` });
              if (Object.keys(payerRow).length > 0) await trx('payers').where({ id: op.payers[index] }).update(payerRow);
            }
          }
        });
        // Payers are never updated by the service, so nothing announces a change of theirs: touch the titles that show them.
        await testDb()('titles').whereIn('operation_id', operations.map((op) => op.id)).update({ status: testDb().raw('status') });
        await answersWithin(client, token, '/v1/operations', () => presentedPage(originatorId, 50, 0));
        await answersWithin(client, token, '/v1/operations?limit=2&offset=1', () => presentedPage(originatorId, 2, 1));
      },
    ), { numRuns: 12, endOnFailure: true });
  });

  it('answers an operation read by id with the same bytes the list carries for it', async () => {
    const page = JSON.parse((await client.get('/v1/operations', { token })).text);
    for (const item of page.items) {
      const res = await client.get(`/v1/operations/${item.id}`, { token });
      expect(res.text).to.equal(JSON.stringify(item));
    }
  });

  it('answers a page of unchanged operations from memory, counted as hits of operation_reads', async () => {
    const counts = async () => {
      const series = await scrape(metricsUrl);
      return ['hit', 'miss'].map((result) => valueOf(series, 'receivables_cache_requests_total', { cache: 'operation_reads', result }));
    };
    // The first read after the changes above renders what they dropped; a later one finds all three kept.
    let grew = [0, 0];
    for (let attempt = 0; attempt < 5 && !(grew[0] === operations.length && grew[1] === 0); attempt += 1) {
      const before = await counts();
      expect((await client.get('/v1/operations', { token })).status).to.equal(200);
      grew = (await counts()).map((value, at) => value - before[at]);
    }
    expect(grew).to.deep.equal([operations.length, 0]);
  });
});
