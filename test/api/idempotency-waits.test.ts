import { expect } from 'chai';
import { startApi, RunningApi } from '../../api/server';
import { testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator } from '../support/factories';
import { cpf } from '../support/documents';
import { blockAssignorDocument, newIdempotencyKey, untilAssignorInsertWaits, untilReservationWaits } from '../support/idempotency';

const HOUR = 3_600_000;

describe('idempotency: concurrent requests and expiry', () => {
  let clockOffsetMs = 0;
  let api: RunningApi;
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  before(async () => {
    // Its own api: a short wait for a key in flight, a fast purge and a clock the tests move (closed
    // in `after`, so the moved clock never purges other files' records). A first request held on the
    // tests' lock waits as long as they hold it (DB_FAIL_FAST_MS), not the default 1.2 s.
    api = await startApi(testConfig({ IDEMPOTENCY_WAIT_MS: '400', PURGE_INTERVAL_MS: '50', DB_FAIL_FAST_MS: '60000' }), { now: () => new Date(Date.now() + clockOffsetMs) });
    client = new ApiClient(api.url);
    ({ token, originatorId } = await buildIntegrator(client));
  });
  after(async () => { await api.close(); });

  const person = () => ({ name: 'Maria Souza', type: 'F', cpf: cpf(), email: 'maria@example.com' });
  const post = (body: unknown, key: string) => client.post('/v1/assignors', body, { token, headers: { 'Idempotency-Key': key } });

  /** A first request that has reserved its key and is held inside its work by an uncommitted assignor with the same document. */
  async function heldFirstRequest() {
    const body = person();
    const key = newIdempotencyKey();
    const blocker = await blockAssignorDocument(originatorId, body.cpf);
    const first = post(body, key);
    await untilAssignorInsertWaits();
    return { body, key, blocker, first };
  }

  it('makes a concurrent request wait for the first and answer with its response', async () => {
    const { body, key, blocker, first } = await heldFirstRequest();
    const second = post(body, key);
    await untilReservationWaits();
    await blocker.rollback();
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).to.equal(201);
    expect(b.text).to.equal(a.text);
    expect(b.headers.get('idempotency-replayed')).to.equal('true');
  });

  it('answers 409 idempotency_key_in_flight when the wait runs out, and the retry replays once the first is done', async () => {
    const { body, key, blocker, first } = await heldFirstRequest();
    const waitedOut = await post(body, key);
    expect(waitedOut.status).to.equal(409);
    expect(waitedOut.body.detail.code).to.equal('idempotency_key_in_flight');
    await blocker.rollback();
    expect((await first).status).to.equal(201);
    const retry = await post(body, key);
    expect(retry.status).to.equal(201);
    expect(retry.headers.get('idempotency-replayed')).to.equal('true');
  });

  it('keeps a key for 24 hours, then executes it anew and purges the expired record', async () => {
    const key = newIdempotencyKey();
    const other = newIdempotencyKey();
    await post(person(), key);
    await post(person(), other);
    clockOffsetMs = 24 * HOUR - 60_000;
    expect((await post(person(), key)).body).to.deep.equal({ detail: 'idempotency_key_reused_with_different_body' });
    clockOffsetMs = 24 * HOUR + 1_000;
    const anew = await post(person(), key);
    expect(anew.status).to.equal(201);
    expect(anew.headers.get('idempotency-replayed')).to.equal(null);
    for (let i = 0; i < 100 && (await testDb()('idempotency_records').where({ key: other })).length > 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await testDb()('idempotency_records').where({ key: other })).to.have.length(0);
    expect(await testDb()('idempotency_records').where({ key })).to.have.length(1);
  });
});
