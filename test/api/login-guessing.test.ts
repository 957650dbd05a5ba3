import { expect } from 'chai';
import { startApi, RunningApi } from '../../api/server';
import { prepareDatabase, sharedApi, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator, buildUser } from '../support/factories';
import { hashPassword } from '../../platform/crypto/passwords';

const MINUTE = 60_000;

/**
 * Issue #30 item 1: the contract's 423 stays (a right password on a locked account), but guessing
 * through a lock costs the guesser: every failure during the lock counts and pushes the lock out,
 * doubling each time.
 */
describe('login against a guesser', function () {
  this.timeout(90_000);
  let client: ApiClient;
  before(async () => {
    await prepareDatabase();
    client = new ApiClient((await sharedApi()).url);
  });

  const row = (id: string) => testDb()('users').where({ id }).first('failed_attempts', 'locked_until');
  const lockMinutesLeft = async (id: string) => ((await row(id)).locked_until.getTime() - Date.now()) / MINUTE;

  it('counts failures during a lock and extends it progressively, while a right password stays 423', async () => {
    const user = await buildUser();
    for (let i = 0; i < 5; i += 1) expect((await client.post('/v1/auth/login', { email: user.email, password: 'wrong' })).status).to.equal(401);
    expect(await lockMinutesLeft(user.id)).to.be.closeTo(30, 1);

    const wrong = await client.post('/v1/auth/login', { email: user.email, password: 'wrong' });
    expect(wrong.status).to.equal(401);
    expect(wrong.body).to.deep.equal({ detail: 'invalid_credentials' });
    expect((await row(user.id)).failed_attempts).to.equal(6);
    expect(await lockMinutesLeft(user.id)).to.be.closeTo(60, 1);
    expect((await client.post('/v1/auth/login', { email: user.email, password: 'wrong' })).status).to.equal(401);
    expect(await lockMinutesLeft(user.id)).to.be.closeTo(120, 1);

    expect((await client.post('/v1/auth/login', user)).status).to.equal(423);
    expect((await row(user.id)).failed_attempts, 'a right password during the lock is not a failure').to.equal(7);
    expect(await lockMinutesLeft(user.id)).to.be.closeTo(120, 1);
  });

  it('caps the extension at a day', async () => {
    const user = await buildUser();
    await testDb()('users').where({ id: user.id }).update({ failed_attempts: 20, locked_until: new Date(Date.now() + 10 * MINUTE) });
    expect((await client.post('/v1/auth/login', { email: user.email, password: 'wrong' })).status).to.equal(401);
    expect(await lockMinutesLeft(user.id)).to.be.closeTo(24 * 60, 1);
  });

  describe('slow hashing', () => {
    let api: RunningApi;
    after(async () => { await api?.close(); });

    it('runs scrypt outside any transaction: a burst of logins on a pool of 2 holds no transaction open and leaves the pool to others', async () => {
      // Real cost (2^17, 128 MiB a hash) and a pool of two connections.
      api = await startApi(testConfig({ PASSWORD_SCRYPT_LOG2N: '17', DB_POOL_MAX: '2', LOGIN_HASH_CONCURRENCY: '1' }));
      const slow = new ApiClient(api.url);
      const user = await buildUser();
      await testDb()('users').where({ id: user.id }).update({ password_hash: await hashPassword(user.password, 17) });
      const { token } = await buildIntegrator(slow);
      let done = false;
      const burst = Promise.all(Array.from({ length: 6 }, (_, i) => slow.post('/v1/auth/login', i % 2 ? user : { email: user.email, password: 'wrong' })))
        .finally(() => { done = true; });
      // While the hashes run, look at what Postgres sees: a login that hashes inside its transaction
      // leaves it idle in transaction, holding the row lock and a pooled connection, for the whole hash.
      const polls: boolean[] = [];
      let read: Promise<{ status: number; text: string }> | null = null;
      while (!done) {
        const { rows } = await testDb().raw(`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and state = 'idle in transaction' and query ilike '%from "users"%'`);
        polls.push(rows[0].n > 0);
        if (polls.length === 5) read = slow.get('/v1/assignors', { token });
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const statuses = (await burst).map((r) => r.status).sort();
      expect(statuses).to.deep.equal([200, 200, 200, 401, 401, 401]);
      expect(polls.length, 'the burst lasted long enough to be watched').to.be.at.least(10);
      expect(polls.filter(Boolean).length / polls.length, 'share of looks that found a login idle in its transaction').to.be.below(0.2);
      const answer = await read!;
      expect(answer.status, answer.text).to.equal(200);
    });
  });
});
