import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import { transaction, type TransactionSpec } from '../../domain/ledger/transaction';
import { LedgerPostingsRepository } from '../../db/repositories/ledger-postings';
import { anotherApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { scrape, valueOf } from '../support/metrics';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';

// Accounts no PSP statement holds: the reconciliation of the files sharing this database never sees these postings.
const BANK = { kind: 'bank_cash' } as const;
const OVERPAYMENT = { kind: 'payer_overpayment' } as const;
/** Replies as the route writes them: an api that validates its replies writes parsed bytes again. */
const UNVALIDATED = { OPENAPI_VALIDATE_RESPONSES: 'false' };

describe('GET /v1/ledger/transactions: posted transactions kept by the api', function () {
  this.timeout(120_000);
  const stack = operationsStack();
  /** The api under test: its cache fills as the tests read. */
  let warm: ApiClient;
  /** An api that keeps nothing: every page rendered by Postgres, as before the cache. */
  let cold: ApiClient;
  /** An api that keeps about two renderings: pages of kept and rendered transactions side by side, evicting as they go. */
  let tiny: ApiClient;
  let metricsUrl: string;
  let operationId: string;
  let titleId: string;
  let bankId: string;
  const pendingKeys: string[] = [];

  /** Posted and pending payments of the operation (every other one on its title), a day apart in 2030, posted as the lifecycle posts. */
  const payment = (day: number, status: 'posted' | 'pending'): TransactionSpec => {
    const amount = Money.fromCents(100 + day);
    const onTitle = day % 2 === 0 ? { titleId } : {};
    return transaction({
      kind: 'payer_payment', idempotencyKey: `cache-test:${uuidv7()}`, status, effectiveAt: new Date(Date.UTC(2030, 0, day)),
      references: { operationId, ...onTitle, externalId: `payment "${day}" ação` },
    }, [{ account: BANK, amount, operationId }], [{ account: OVERPAYMENT, amount, ...onTitle }]);
  };
  const post = (specs: TransactionSpec[]) => testDb().transaction((trx) => new LedgerPostingsRepository(trx, stack.originatorId).postAll(specs));
  const idOf = async (key: string): Promise<string> => (await testDb()('ledger_transactions').where({ idempotency_key: key }).first('id')).id;
  const hits = async () => valueOf(await scrape(metricsUrl), 'receivables_cache_requests_total', { cache: 'ledger_transactions', result: 'hit' });

  const bytesOf = async (client: ApiClient, path: string, token = stack.token) => {
    const res = await client.get(path, { token });
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    expect(Number(res.headers.get('content-length'))).to.equal(Buffer.byteLength(res.text));
    return res.text;
  };

  before(async () => {
    const api = await anotherApi(UNVALIDATED);
    warm = new ApiClient(api.url);
    metricsUrl = api.metricsUrl;
    cold = new ApiClient((await anotherApi({ ...UNVALIDATED, LEDGER_TRANSACTION_CACHE_BYTES: '0' })).url);
    tiny = new ApiClient((await anotherApi({ ...UNVALIDATED, LEDGER_TRANSACTION_CACHE_BYTES: '2000' })).url);
    const created = await createDirect(stack.client, stack.token, directBody());
    expect(created.status, created.text).to.equal(201);
    operationId = created.body.id;
    titleId = created.body.titles[0].id;
    const specs = Array.from({ length: 14 }, (_, at) => payment(at + 1, at % 4 === 3 ? 'pending' : 'posted'));
    pendingKeys.push(...specs.filter((spec) => spec.status === 'pending').map((spec) => spec.idempotencyKey));
    await post(specs);
    bankId = (await testDb()('ledger_accounts').where({ originator_id: stack.originatorId, account_key: 'bank_cash' }).first('id')).id;
  });

  it('answers a page from kept renderings byte for byte as from none, for every filter and page', async () => {
    const queries = [
      '', `?operation_id=${operationId}`, `?operation_id=${operationId}&limit=3`, `?operation_id=${operationId}&limit=3&offset=2`, `?title_id=${titleId}`, `?account_id=${bankId}`,
      '?effective_from=2030-01-03T00:00:00.000Z&effective_to=2030-01-09T00:00:00.000Z', `?operation_id=${operationId}&offset=10`,
      `?operation_id=${operationId}&offset=50`,
    ];
    for (const query of queries) {
      const path = `/v1/ledger/transactions${query}`;
      await bytesOf(warm, path);
      const before = await hits();
      const fromKept = await bytesOf(warm, path);
      // Every posted transaction of the page came from the cache, and no pending one did.
      const posted = JSON.parse(fromKept).items.filter((item: { status: string }) => item.status === 'posted').length;
      expect(await hits() - before, query).to.equal(posted);
      const fromNone = await bytesOf(cold, path);
      expect(fromKept, query).to.equal(fromNone);
      expect(await bytesOf(tiny, path), query).to.equal(fromNone);
      expect(await bytesOf(tiny, path), query).to.equal(fromNone);
    }
    expect(JSON.parse(await bytesOf(warm, `/v1/ledger/transactions?operation_id=${operationId}`)).total).to.be.at.least(14);
  });

  it('answers a kept page again only while it lists the same transactions, count and bounds', async () => {
    const head = `/v1/ledger/transactions?operation_id=${operationId}&limit=3`;
    const { total } = JSON.parse(await bytesOf(warm, head));
    const tail = `/v1/ledger/transactions?operation_id=${operationId}&limit=3&offset=${total - 1}`;
    for (const path of [head, tail]) {
      const page = JSON.parse(await bytesOf(warm, path));
      expect(page.items.map((item: { status: string }) => item.status), path).to.deep.equal(path === head ? ['posted', 'posted', 'posted'] : ['posted']);
    }
    await post([payment(20, 'posted')]);
    // The head lists the same transactions with a new count; the tail lists one more.
    for (const path of [head, tail]) {
      const page = await bytesOf(warm, path);
      expect(JSON.parse(page).total, path).to.equal(total + 1);
      expect(page, path).to.equal(await bytesOf(cold, path));
    }
    expect(JSON.parse(await bytesOf(warm, tail)).items).to.have.length(2);
  });

  it('never answers one originator with another\'s kept transaction', async () => {
    const [kept] = JSON.parse(await bytesOf(warm, `/v1/ledger/transactions?operation_id=${operationId}&limit=1`)).items;
    expect(kept.status).to.equal('posted');
    const before = await hits();
    const owners = await bytesOf(warm, `/v1/ledger/transactions/${kept.id}`);
    expect(await hits() - before).to.equal(1);
    expect(await bytesOf(warm, `/v1/ledger/transactions/${kept.id.toUpperCase()}`)).to.equal(owners);
    const other = await buildOperationsIntegrator(stack.client);
    for (const id of [kept.id, kept.id.toUpperCase()]) {
      const read = await warm.get(`/v1/ledger/transactions/${id}`, { token: other.token });
      expect(read.status).to.equal(404);
      expect(read.body).to.deep.equal({ detail: 'ledger_transaction_not_found' });
    }
    expect(JSON.parse(await bytesOf(warm, `/v1/ledger/transactions?operation_id=${operationId}`, other.token))).to.deep.equal({ items: [], total: 0, limit: 50, offset: 0 });
  });

  it('answers a pending transaction that posts later in its new state', async () => {
    const key = pendingKeys[0];
    const id = await idOf(key);
    const page = `/v1/ledger/transactions?operation_id=${operationId}`;
    const itemOf = (text: string) => JSON.parse(text).items.find((item: { id: string }) => item.id === id);
    for (let read = 0; read < 2; read += 1) {
      expect(itemOf(await bytesOf(warm, page))).to.include({ status: 'pending', resolved_at: null });
      expect(JSON.parse(await bytesOf(warm, `/v1/ledger/transactions/${id}`))).to.include({ status: 'pending' });
    }
    await testDb().transaction((trx) => new LedgerPostingsRepository(trx, stack.originatorId).resolve(key, 'posted', new Date('2030-02-01T12:00:00Z')));
    const fromKept = await bytesOf(warm, page);
    expect(itemOf(fromKept)).to.include({ status: 'posted', resolved_at: '2030-02-01T12:00:00.000Z' });
    expect(fromKept).to.equal(await bytesOf(cold, page));
    // Posted now, it is kept like the others.
    const before = await hits();
    expect(JSON.parse(await bytesOf(warm, `/v1/ledger/transactions/${id}`))).to.include({ status: 'posted' });
    expect(await hits() - before).to.equal(1);
  });
});
