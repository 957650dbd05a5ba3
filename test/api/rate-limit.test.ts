import { expect } from 'chai';
import { startApi, RunningApi } from '../../api/server';
import { sharedApi, testConfig } from '../support/stack';
import { ApiClient, HttpResponse } from '../support/http';
import { buildCredential, tokenFor } from '../support/factories';

let addresses = 0;
/** A fresh origin address per budget under test: windows live in Postgres and outlive a test. */
const nextAddress = () => { addresses += 1; return `198.18.${addresses >> 8}.${addresses & 255}`; };

const limitHeaders = (res: HttpResponse) => [res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-remaining')];

describe('rate limits', () => {
  let clockOffsetMs = 0;
  let api: RunningApi;
  let client: ApiClient;
  let shared: ApiClient;
  before(async () => {
    // Its own api with small budgets, behind a trusted proxy so each test has its own address,
    // and a clock the window test moves (closed in `after`).
    api = await startApi(testConfig({
      TRUST_PROXY: 'true', RATE_LIMIT_IP_RPM: '3', RATE_LIMIT_LOGIN_RPM: '2', RATE_LIMIT_AUTH_TOKEN_RPM: '4', RATE_LIMIT_TOKEN_RPM: '3',
    }), { now: () => new Date(Date.now() + clockOffsetMs) });
    client = new ApiClient(api.url);
    shared = new ApiClient((await sharedApi()).url);
  });
  after(async () => { await api.close(); });

  const from = (address: string, headers: Record<string, string> = {}) => ({ headers: { 'X-Forwarded-For': address, ...headers } });

  it('limits each origin address before authentication, with the origin budget in the headers and a full 429', async () => {
    const address = nextAddress();
    const admitted = [await client.get('/v1/flow', from(address)), await client.get('/v1/auth/me', from(address)), await client.get('/v1/flow', from(address))];
    expect(admitted.map((r) => r.status)).to.deep.equal([200, 401, 200]);
    expect(admitted.map(limitHeaders)).to.deep.equal([['3', '2'], ['3', '1'], ['3', '0']]);
    const refused = await client.get('/v1/flow', from(address));
    expect(refused.status).to.equal(429);
    expect(refused.body.detail).to.include({ code: 'rate_limit_exceeded', scope: 'ip', limit_rpm: 3 });
    expect(refused.body.detail.retry_after_seconds).to.be.within(1, 60);
    expect(refused.body.detail.message).to.be.a('string');
    expect(limitHeaders(refused)).to.deep.equal(['3', '0']);
    expect(refused.headers.get('retry-after')).to.equal(String(refused.body.detail.retry_after_seconds));
    expect((await client.get('/v1/flow', from(nextAddress()))).status).to.equal(200);
  });

  it('counts concurrent requests exactly: of 12 at once, the budget admits 3', async () => {
    const address = nextAddress();
    const responses = await Promise.all(Array.from({ length: 12 }, () => client.get('/v1/flow', from(address))));
    expect(responses.filter((r) => r.status === 200)).to.have.length(3);
    expect(responses.filter((r) => r.status === 429)).to.have.length(9);
  });

  it('gives login and token exchange their own, tighter budgets per address', async () => {
    const address = nextAddress();
    const login = () => client.post('/v1/auth/login', { email: 'nobody@example.com', password: 'wrong' }, from(address));
    expect([(await login()).status, (await login()).status]).to.deep.equal([401, 401]);
    const refused = await login();
    expect(refused.status).to.equal(429);
    expect(refused.body.detail).to.include({ scope: 'ip', limit_rpm: 2 });
    const exchange = await client.post('/v1/auth/token', { client_id: 'zk_sbx_unknown', client_secret: 'x' }, from(address));
    expect(exchange.status).to.equal(401);
    expect(limitHeaders(exchange)).to.deep.equal(['4', '3']);
    expect((await client.get('/v1/flow', from(address))).status).to.equal(200);
  });

  it('limits each credential after authentication: a 401 consumes nothing and each credential has its own budget', async () => {
    const credential = await buildCredential();
    const token = await tokenFor(shared, credential);
    const legacy = { 'X-Client-Id': credential.clientId, 'X-Client-Secret': 'wrong-secret' };
    for (let i = 0; i < 3; i += 1) expect((await client.get('/v1/assignors', from(nextAddress(), legacy))).status).to.equal(401);
    for (let i = 0; i < 3; i += 1) {
      const res = await client.get('/v1/assignors', { token, ...from(nextAddress()) });
      expect(res.status).to.equal(200);
      expect(limitHeaders(res)).to.deep.equal(['3', '2']);
    }
    const refused = await client.get('/v1/assignors', { token, ...from(nextAddress()) });
    expect(refused.status).to.equal(429);
    expect(refused.body.detail).to.include({ code: 'rate_limit_exceeded', scope: 'token', limit_rpm: 3 });
    expect(limitHeaders(refused)).to.deep.equal(['3', '0']);
    const other = await tokenFor(shared, await buildCredential({ originatorId: credential.originatorId }));
    expect((await client.get('/v1/assignors', { token: other, ...from(nextAddress()) })).status).to.equal(200);
  });

  it('slides the window: a slot returns when the oldest request is a minute old, and Retry-After says when', async () => {
    const address = nextAddress();
    const at = async (seconds: number) => { clockOffsetMs = seconds * 1000; return client.get('/v1/flow', from(address)); };
    try {
      for (const second of [0, 20, 40]) expect((await at(second)).status).to.equal(200);
      const early = await at(50);
      expect(early.status).to.equal(429);
      expect(early.headers.get('retry-after')).to.be.oneOf(['10', '11']);
      expect((await at(61)).status).to.equal(200);
      const again = await at(62);
      expect(again.status).to.equal(429);
      expect(again.body.detail.retry_after_seconds).to.be.oneOf([18, 19]);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('never limits the OpenAPI document and the JWKS, and sends them no rate-limit headers', async () => {
    const address = nextAddress();
    for (const path of ['/v1/openapi.json', '/v1/.well-known/jwks.json']) {
      for (let i = 0; i < 4; i += 1) {
        const res = await client.get(path, from(address));
        expect(res.status, path).to.equal(200);
        expect(limitHeaders(res)).to.deep.equal([null, null]);
      }
    }
  });

  it('ignores X-Forwarded-For unless a trusted proxy is configured', async () => {
    const first = await shared.get('/v1/flow', from(nextAddress()));
    const second = await shared.get('/v1/flow', from(nextAddress()));
    expect(Number(second.headers.get('x-ratelimit-remaining'))).to.equal(Number(first.headers.get('x-ratelimit-remaining')) - 1);
  });
});
