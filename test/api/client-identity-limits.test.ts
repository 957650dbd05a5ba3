import { expect } from 'chai';
import { sharedApi } from '../support/stack';
import { proxiedApi } from '../support/proxied-api';
import { ApiClient } from '../support/http';
import { buildCredential, buildUser } from '../support/factories';

let addresses = 0;
/** A fresh origin address per request: windows live in Postgres and outlive a test. */
const nextAddress = () => { addresses += 1; return `198.19.${addresses >> 8}.${addresses & 255}`; };

/**
 * Issue #30 item 2: behind a proxy the client is who the trusted hops say, an IPv6 client is one
 * /64, and guessing a secret is limited per identity whatever address it comes from.
 */
describe('client addresses and per-identity budgets', function () {
  this.timeout(60_000);
  // The contract's lockout (5 failures, test/api/login-guessing.test.ts) is out of the way of the budgets here.
  const proxied = proxiedApi({
    RATE_LIMIT_IP_RPM: '2', RATE_LIMIT_LOGIN_RPM: '100', RATE_LIMIT_AUTH_TOKEN_RPM: '3', RATE_LIMIT_LOGIN_ACCOUNT_PER_HOUR: '3',
    RATE_LIMIT_LOGIN_ACCOUNT_CEILING_PER_HOUR: '5', LOGIN_MAX_FAILURES: '100',
  });
  let client: ApiClient;
  before(() => { client = proxied.client; });

  const via = (chain: string, headers: Record<string, string> = {}) => ({ headers: { 'X-Forwarded-For': chain, ...headers } });

  it('with a hop count, counts the address the proxy saw, not what the client wrote to the left of it', async () => {
    const real = nextAddress();
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await client.get('/v1/flow', via(`10.9.9.${i}, 192.0.2.${i}, ${real}`))).status);
    expect(statuses).to.deep.equal([200, 200, 429]);
  });

  it('counts an IPv6 client by its /64', async () => {
    const prefix = `2001:db8:${(addresses += 1).toString(16)}:1`;
    const first = await client.get('/v1/flow', via(`${prefix}::1`));
    const second = await client.get('/v1/flow', via(`${prefix}:ffff:ffff:ffff:fffe`));
    const third = await client.get('/v1/flow', via(`${prefix}:0:0:0:abcd`));
    expect([first.status, second.status, third.status]).to.deep.equal([200, 200, 429]);
    expect((await client.get('/v1/flow', via(`2001:db8:${addresses.toString(16)}:2::1`))).status).to.equal(200);
  });

  it('limits login attempts per account and address, and from the addresses the account never signed in from all together; the owner still signs in from its own', async () => {
    const owner = await buildUser();
    const login = (password: string, address: string) => client.post('/v1/auth/login', { email: owner.email, password }, via(address));
    const home = nextAddress();
    expect((await login(owner.password, home)).status).to.equal(200);

    const away = nextAddress();
    for (let i = 0; i < 3; i += 1) expect((await login('wrong', away)).status).to.equal(401);
    const refused = await login(owner.password, away);
    expect(refused.status, refused.text).to.equal(429);
    expect(refused.body.detail).to.include({ code: 'rate_limit_exceeded', scope: 'account', limit_rpm: 3, window_seconds: 3600 });
    expect(Number(refused.headers.get('retry-after'))).to.be.within(3500, 3600);

    // The ceiling (5) counts the addresses the account had not signed in from: home's first sign-in, 3 from away, 1 more.
    expect((await login('wrong', nextAddress())).status).to.equal(401);
    const ceiling = await client.post('/v1/auth/login', { email: owner.email.toUpperCase(), password: owner.password }, via(nextAddress()));
    expect(ceiling.status, ceiling.text).to.equal(429);
    expect(ceiling.body.detail).to.include({ scope: 'account', limit_rpm: 5, window_seconds: 3600 });

    const own = await login(owner.password, home);
    expect(own.status, own.text).to.equal(200);
    const other = await buildUser();
    expect((await client.post('/v1/auth/login', { email: other.email, password: other.password }, via(nextAddress()))).status).to.equal(200);
  });

  it('limits token exchange per client id whatever the address', async () => {
    const credential = await buildCredential();
    for (let i = 0; i < 3; i += 1) {
      expect((await client.post('/v1/auth/token', { client_id: credential.clientId, client_secret: 'guess' }, via(nextAddress()))).status).to.equal(401);
    }
    const refused = await client.post('/v1/auth/token', { client_id: credential.clientId, client_secret: credential.secret }, via(nextAddress()));
    expect(refused.status, refused.text).to.equal(429);
    expect(refused.body.detail).to.include({ scope: 'account', limit_rpm: 3 });
  });

  it('counts legacy-header secret checks against the token exchange budgets, per client and per address', async () => {
    const credential = await buildCredential();
    const legacy = (secret: string) => ({ 'X-Client-Id': credential.clientId, 'X-Client-Secret': secret });
    for (let i = 0; i < 3; i += 1) expect((await client.get('/v1/assignors', via(nextAddress(), legacy('guess')))).status).to.equal(401);
    const perClient = await client.get('/v1/assignors', via(nextAddress(), legacy('guess')));
    expect(perClient.status, perClient.text).to.equal(429);
    expect(perClient.body.detail).to.include({ scope: 'account', limit_rpm: 3 });

    const address = nextAddress();
    for (let i = 0; i < 3; i += 1) {
      expect((await client.post('/v1/auth/token', { client_id: `zk_sbx_unknown_${address}_${i}`, client_secret: 'x' }, via(address))).status).to.equal(401);
    }
    const other = await buildCredential();
    const perAddress = await client.get('/v1/assignors', via(address, { 'X-Client-Id': other.clientId, 'X-Client-Secret': 'guess' }));
    expect(perAddress.status, perAddress.text).to.equal(429);
    expect(perAddress.body.detail).to.include({ scope: 'ip', limit_rpm: 3 });
  });

  it('does not charge a legacy secret this process has already verified', async () => {
    const credential = await buildCredential();
    const legacy = { 'X-Client-Id': credential.clientId, 'X-Client-Secret': credential.secret };
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await client.get('/v1/assignors', via(nextAddress(), legacy))).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200]);
  });

  it('keeps the shared api ignoring X-Forwarded-For without TRUST_PROXY', async () => {
    const shared = new ApiClient((await sharedApi()).url);
    const first = await shared.get('/v1/flow', via(nextAddress()));
    const second = await shared.get('/v1/flow', via(nextAddress()));
    expect(Number(second.headers.get('x-ratelimit-remaining'))).to.equal(Number(first.headers.get('x-ratelimit-remaining')) - 1);
  });
});
