import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { sharedApi, testConfig, testDb } from '../support/stack';
import { providerSignatureHeaders } from '../../domain/provider-signature';
import { ApiClient, HttpResponse } from '../support/http';
import { buildCredential, buildUser, loginAs } from '../support/factories';
import { newIdempotencyKey } from '../support/idempotency';
import { directBody } from '../support/operations';
import { buildPricingIntegrator, receivable } from '../support/simulate';
import { stockBody } from '../support/stock';
import { EVENT_KIND_LIST_MAX_ITEMS, EVENT_TYPES } from '../../domain/events';

/** Tables a refused write could have touched. */
const WRITTEN = ['assignors', 'stock_items', 'operations', 'idempotency_records', 'assignor_payables', 'discount_credits', 'webhook_subscriptions'];

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of WRITTEN) counts[table] = Number((await testDb()(table).count({ n: '*' }))[0].n);
  return counts;
}

/** The contract's 422 `validation_error`, in JSON, with the expected locs among its errors. */
function expectValidationError(res: HttpResponse, ...locs: (string | number)[][]) {
  expect(res.status, res.text.slice(0, 300)).to.equal(422);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  expect(res.body.detail.code).to.equal('validation_error');
  const seen = (res.body.detail.errors as { loc: unknown[] }[]).map((e) => e.loc);
  for (const loc of locs) expect(seen).to.deep.include(loc);
  return res.body.detail.errors as { loc: unknown[]; type: string; msg: string }[];
}

describe('hostile input: every bad request is answered in the envelope, and nothing is written', () => {
  let client: ApiClient;
  let token: string;
  let userToken: string;
  let countsBefore: Record<string, number>;
  const withKey = (key = newIdempotencyKey()) => ({ token, headers: { 'Idempotency-Key': key } });

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildPricingIntegrator(client));
    userToken = await loginAs(client, await buildUser());
  });
  beforeEach(async () => { countsBefore = await rowCounts(); });
  afterEach(async function () {
    if (this.currentTest?.state === 'passed') expect(await rowCounts()).to.deep.equal(countsBefore);
  });

  describe('NUL characters', () => {
    it('in the credentials of a token exchange and a login: 422 with redacted input, not 500 or 503', async () => {
      const credential = await buildCredential();
      const exchange = await client.post('/v1/auth/token', { client_id: `${credential.clientId}\u0000`, client_secret: credential.secret });
      expect(expectValidationError(exchange, ['body', 'client_id'])[0]).to.deep.include({ type: 'string_pattern_mismatch' });
      const login = await client.post('/v1/auth/login', { email: 'someone\u0000@example.com', password: 'whatever' });
      expectValidationError(login, ['body', 'email']);
      expect(JSON.stringify(login.body)).not.to.include('someone');
    });

    it('in names, external ids, descriptions and reasons of writes', async () => {
      expectValidationError(await client.post('/v1/stock', stockBody({ name: 'Nul\u0000 Ltda' }), withKey()), ['body', 'name']);
      expectValidationError(
        await client.post('/v1/operations/direct', directBody({ receivables: [receivable({ external_id: 'NF\u00001' })] }), withKey()),
        ['body', 'receivables', 0, 'external_id'],
      );
      expectValidationError(await client.post('/v1/webhooks', { url: 'https://receiver.test/hook', events: ['operation.created'], description: 'a\u0000b' }, { token }), ['body', 'description']);
      expectValidationError(await client.post('/v1/assignor-payables', { reason: '\u0000', amount_brl: '1.00' }, { token }), ['body', 'reason']);
      expectValidationError(await client.post('/v1/simulate', { receivables: [{ ['key\u0000']: 1 }] }, { token }), ['body', 'receivables', 0, 'key\u0000']);
    });

    it('in query filters and in provider callbacks', async () => {
      expectValidationError(await client.get('/v1/titles?status=%00', { token }), ['query', 'status']);
      expectValidationError(await client.get('/v1/titles?payer_document=1%002', { token }), ['query', 'payer_document']);
      expectValidationError(await client.get('/v1/backoffice/approval-queue?assignor_document=%00', { token: userToken }), ['query', 'assignor_document']);
      // Correctly signed, so the NUL is what is refused (an unsigned callback is 401 before its body is read).
      const signed = (secret: string, body: unknown) => {
        const raw = JSON.stringify(body);
        return { rawBody: raw, headers: providerSignatureHeaders(secret, raw, Math.floor(Date.now() / 1000)) };
      };
      const { esignSecret, pixSecret } = testConfig().callbacks;
      expectValidationError(await client.post('/v1/internal/esign/callback', undefined, signed(esignSecret, { document_id: 'doc\u0000' })), ['body', 'document_id']);
      expectValidationError(
        await client.post('/v1/internal/pix/callback', undefined, signed(pixSecret, { payment_id: 'pay\u0000', idempotency_key: 'k\u0000' })),
        ['body', 'payment_id'], ['body', 'idempotency_key'],
      );
    });
  });

  describe('impossible dates', () => {
    it('in query filters: a day the month does not have, year 0000', async () => {
      expectValidationError(await client.get('/v1/titles?due_date_from=2026-02-30', { token }), ['query', 'due_date_from']);
      expectValidationError(await client.get('/v1/titles?due_date_to=0000-01-01', { token }), ['query', 'due_date_to']);
      expectValidationError(await client.get('/v1/assignor-payables?due_date_from=2026-13-01', { token }), ['query', 'due_date_from']);
      expect((await client.get('/v1/titles?due_date_from=2028-02-29', { token })).status).to.equal(200);
    });

    it('in bodies: year 0000 is refused, years 0001–0099 are read as written (not as 19xx)', async () => {
      expectValidationError(await client.post('/v1/simulate', { receivables: [receivable({ due_date: '0000-01-01' })] }, { token }), ['body', 'receivables', 0, 'due_date']);
      expectValidationError(await client.post('/v1/simulate', { receivables: [receivable({ due_date: '2027-02-29' })] }, { token }), ['body', 'receivables', 0, 'due_date']);
      const ancient = await client.post('/v1/simulate', { receivables: [receivable({ due_date: '0099-12-31' })] }, { token });
      expect(ancient.status, ancient.text).to.equal(200);
      expect(ancient.body.receivables[0]).to.include({ due_date: '0099-12-31', days_to_due: 0 });
    });

    it('date-time filters with a UTC offset Postgres refuses (beyond ±15:59)', async () => {
      const queue = (from: string) => client.get(`/v1/backoffice/approval-queue?created_from=${encodeURIComponent(from)}`, { token: userToken });
      expectValidationError(await queue('2026-01-01T00:00:00-16:00'), ['query', 'created_from']);
      expectValidationError(await queue('2026-01-01T00:00:00+23:59'), ['query', 'created_from']);
      expectValidationError(await queue('2026-02-30T00:00:00Z'), ['query', 'created_from']);
      expect((await queue('2026-01-01T00:00:00-15:59')).status).to.equal(200);
      for (const at of ['2026-08-14T16:02:13+01:58', '0170-08-14T16:02:13+01:58', '0170-08-14T16:02:13Z']) {
        const res = await client.get(`/v1/events?created%5Bgte%5D=${encodeURIComponent(at)}`, { token });
        expect(res.status, `${at}: ${res.text}`).to.equal(200);
      }
    });
  });

  describe('a query value written with reserved characters', () => {
    it('is read as the query parser decodes it (+ is a space, as URLSearchParams sends it), not refused as not url-encoded', async () => {
      const res = await client.get(`/v1/titles?${new URLSearchParams({ payer_document: '11 222 333/0001-81' })}`, { token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.items).to.deep.equal([]);
      expectValidationError(await client.get('/v1/titles?payer_document=1%002+3', { token }), ['query', 'payer_document']);
    });
  });

  describe('offsets beyond what Postgres accepts', () => {
    const LISTS = ['/v1/assignors', '/v1/products', '/v1/operations', '/v1/titles', '/v1/stock', '/v1/assignor-payables', '/v1/discount-credits', '/v1/webhooks'];

    it('are a 422 on every list route; the declared maximum itself is an empty page', async () => {
      for (const path of LISTS) {
        for (const offset of ['9223372036854775807', '99999999999999999999', '2147483648']) {
          expectValidationError(await client.get(`${path}?offset=${offset}`, { token }), ['query', 'offset']);
        }
        const last = await client.get(`${path}?offset=2147483647`, { token });
        expect(last.status, `${path} ${last.text}`).to.equal(200);
        expect(last.body.items).to.deep.equal([]);
      }
      expectValidationError(await client.get('/v1/backoffice/approval-queue?offset=99999999999999999999', { token: userToken }), ['query', 'offset']);
    });
  });

  describe('a method a literal path does not have', () => {
    it('is a 405 with Allow, never the handler of the {id} path beside it', async () => {
      const cases: [string, string, string][] = [
        ['GET', '/v1/operations/direct', 'POST'],
        ['GET', '/v1/stock/simulate-anticipation', 'POST'],
        ['PATCH', '/v1/stock/simulate-anticipation', 'POST'],
        ['GET', '/v1/stock/request-anticipation', 'POST'],
        ['DELETE', '/v1/stock', 'GET, POST, HEAD'],
      ];
      for (const [method, path, allow] of cases) {
        const res = await client.request(method, path, { token, ...(method === 'PATCH' ? { body: {} } : {}) });
        expect(res.status, `${method} ${path} ${res.text}`).to.equal(405);
        expect(res.headers.get('allow')).to.equal(allow);
        expect(res.body).to.deep.equal({ detail: 'method_not_allowed' });
      }
      expect((await client.get('/v1/no-such-route', { token })).status).to.equal(404);
    });
  });

  describe('deeply nested JSON', () => {
    const deepArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

    it('is refused at the parser, with and without Idempotency-Key, as JSON', async () => {
      const bodies = [`{"receivables":${deepArray(10_000)}}`, deepObject(50_000)];
      for (const rawBody of bodies) {
        for (const route of ['/v1/simulate', '/v1/stock', '/v1/assignors']) {
          for (const headers of [{}, { 'Idempotency-Key': newIdempotencyKey() }] as Record<string, string>[]) {
            const errors = expectValidationError(await client.request('POST', route, { token, rawBody, headers }));
            expect(errors).to.have.length(1);
            expect(errors[0]).to.include({ type: 'too_deep' });
            expect(errors[0].loc.length).to.be.at.most(40);
          }
        }
      }
    });

    it('within the bound is validated as usual, echoing the input', async () => {
      const res = await client.request('POST', '/v1/simulate', { token, rawBody: `{"receivables":[${deepArray(20)}]}` });
      const errors = expectValidationError(res, ['body', 'receivables', 0]);
      expect(errors.find((e) => e.loc.length === 3)).to.have.property('input');
    });
  });

  describe('ids in bodies', () => {
    it('product_id must be a uuid, on both creation routes', async () => {
      expectValidationError(await client.post('/v1/operations/direct', directBody({ product_id: 'not-a-uuid' }), withKey()), ['body', 'product_id']);
      const res = await client.post('/v1/stock/request-anticipation',
        { stock_item_ids: ['01930000-0000-7000-8000-00000000000a'], requested_net_future_value: '1.00', bank: {}, product_id: 'not-a-uuid' }, withKey());
      expect(expectValidationError(res, ['body', 'product_id']).find((e) => e.loc[1] === 'product_id')).to.include({ type: 'uuid_parsing' });
    });
  });

  describe('a Content-Encoding the body does not have', () => {
    it('is a 422 validation_error at the body for gzip, deflate and br; a real gzip body is read', async () => {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const res = await client.request('POST', '/v1/simulate', { token, rawBody: '{"receivables":[]}', headers: { 'Content-Encoding': encoding } });
        expect(expectValidationError(res, ['body'])[0].msg).to.match(/Content-Encoding/);
      }
      const body = JSON.stringify({ receivables: [receivable()] });
      const response = await fetch(`${client.baseUrl}/v1/simulate`, {
        method: 'POST', body: gzipSync(body), headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      });
      expect(response.status).to.equal(200);
    });
  });

  describe('lengths and closed objects', () => {
    it('refuses over-long bank fields, address fields and backing_type, and unknown address keys', async () => {
      const long = 'x'.repeat(1000);
      const res = await client.post('/v1/operations/direct', directBody({
        bank: { code: long, agency: long, account: long, type: long },
        address: { street: long, city: 'São Paulo', colour: 'blue' },
        receivables: [receivable({ backing_type: long })],
      }), withKey());
      expectValidationError(res,
        ['body', 'bank', 'code'], ['body', 'bank', 'agency'], ['body', 'bank', 'account'], ['body', 'bank', 'type'],
        ['body', 'address', 'street'], ['body', 'address', 'colour'], ['body', 'receivables', 0, 'backing_type']);
    });

    it('refuses a money or rate string over 40 characters, even of zeros the value would allow; 40 are read', async () => {
      const padded = (value: string, length: number) => value.padStart(length, '0');
      const res = await client.post('/v1/simulate', {
        receivables: [receivable({ net_future_value: padded('10000.00', 41), requested_net_future_value_percent: padded('50', 41), requested_net_future_value: undefined })],
      }, { token });
      const errors = expectValidationError(res, ['body', 'receivables', 0, 'net_future_value'], ['body', 'receivables', 0, 'requested_net_future_value_percent']);
      expect(errors.filter((e) => e.type === 'string_too_long').map((e) => e.loc)).to.deep.equal([
        ['body', 'receivables', 0, 'net_future_value'], ['body', 'receivables', 0, 'requested_net_future_value_percent']]);
      const filter = await client.get(`/v1/backoffice/approval-queue?min_amount=${padded('1', 41)}`, { token: userToken });
      expect(expectValidationError(filter, ['query', 'min_amount'])[0].type).to.equal('string_too_long');
      const atBound = await client.post('/v1/simulate', {
        receivables: [receivable({ net_future_value: padded('10000.00', 40), requested_net_future_value: padded('10000.00', 40) })],
      }, { token });
      expect(atBound.status, atBound.text.slice(0, 300)).to.equal(200);
    });

    it('refuses a webhook events list longer than its bound (only repeats could make it so)', async () => {
      const events = Array.from({ length: EVENT_KIND_LIST_MAX_ITEMS + 1 }, (_, i) => EVENT_TYPES[i % EVENT_TYPES.length]);
      const res = await client.post('/v1/webhooks', { url: 'https://hooks.example.com/in', events }, withKey());
      expect(expectValidationError(res, ['body', 'events'])[0].type).to.equal('too_long');
      const kinds = await client.get(`/v1/events?${events.map((kind) => `type=${kind}`).join('&')}`, { token });
      expect(expectValidationError(kinds, ['query', 'type'])[0].type).to.equal('too_long');
    });
  });
});
