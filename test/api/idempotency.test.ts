import { expect } from 'chai';
import { sharedApi, testDb } from '../support/stack';
import { ApiClient, HttpResponse } from '../support/http';
import { buildIntegrator } from '../support/factories';
import { cpf } from '../support/documents';
import { blockAssignorDocument, newIdempotencyKey as newKey, untilAssignorInsertWaits } from '../support/idempotency';

describe('idempotency', () => {
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token, originatorId } = await buildIntegrator(client));
  });

  const person = (overrides: Record<string, unknown> = {}) => ({ name: 'Maria Souza', type: 'F', cpf: cpf(), email: 'maria@example.com', ...overrides });
  const post = (body: unknown, key: string, path = '/v1/assignors') => client.post(path, body, { token, headers: { 'Idempotency-Key': key } });
  const replayed = (res: HttpResponse) => res.headers.get('idempotency-replayed');

  async function assignorsWithDocument(document: string): Promise<number> {
    const list = await client.get('/v1/assignors?limit=200', { token });
    return list.body.items.filter((a: { document: string }) => a.document === document).length;
  }

  it('replays a 201 byte for byte with Idempotency-Replayed: true, without a second effect', async () => {
    const body = person();
    const key = newKey();
    const first = await post(body, key);
    const second = await post(body, key);
    expect(first.status).to.equal(201);
    expect(replayed(first)).to.equal(null);
    expect(second.status).to.equal(201);
    expect(second.text).to.equal(first.text);
    expect(replayed(second)).to.equal('true');
    expect(await assignorsWithDocument(body.cpf)).to.equal(1);
  });

  it('gives 20 concurrent identical requests one effect and 20 identical responses', async () => {
    const body = person();
    const key = newKey();
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(body, key)));
    expect(responses.map((r) => r.status)).to.deep.equal(Array(20).fill(201));
    expect(new Set(responses.map((r) => r.text)).size).to.equal(1);
    expect(responses.filter((r) => replayed(r) === null)).to.have.length(1);
    expect(await assignorsWithDocument(body.cpf)).to.equal(1);
  });

  it('compares bodies after JSON canonicalisation: key order and whitespace do not matter', async () => {
    const key = newKey();
    const document = cpf();
    const first = await client.request('POST', '/v1/assignors', { token, headers: { 'Idempotency-Key': key }, rawBody: `{"type":"F","name":"Ana","cpf":"${document}","email":"ana@example.com"}` });
    const second = await client.request('POST', '/v1/assignors', { token, headers: { 'Idempotency-Key': key }, rawBody: `{ "email": "ana@example.com",\n  "cpf": "${document}", "name": "Ana", "type": "F" }` });
    expect(first.status).to.equal(201);
    expect(second.text).to.equal(first.text);
    expect(replayed(second)).to.equal('true');
  });

  it('refuses the same key with another body: 409 with a string detail', async () => {
    const key = newKey();
    await post(person(), key);
    const res = await post(person(), key);
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.equal({ detail: 'idempotency_key_reused_with_different_body' });
  });

  it('refuses the same key on another route, a resource in the path included', async () => {
    const key = newKey();
    await post(person(), key);
    const res = await post({ url: 'https://public.test/hooks', events: ['operation.approved'] }, key, '/v1/webhooks');
    expect(res.status).to.equal(409);
    expect(res.body.detail.code).to.equal('idempotency_key_reused_on_different_route');
    const deleteKey = newKey();
    const [one, two] = [await post({ url: 'https://public.test/a', events: ['operation.approved'] }, newKey(), '/v1/webhooks'), await post({ url: 'https://public.test/b', events: ['operation.approved'] }, newKey(), '/v1/webhooks')];
    const remove = (id: string) => client.delete(`/v1/webhooks/${id}`, { token, headers: { 'Idempotency-Key': deleteKey } });
    expect((await remove(one.body.id)).status).to.equal(204);
    const replayedDelete = await remove(one.body.id);
    expect([replayedDelete.status, replayedDelete.text, replayed(replayedDelete)]).to.deep.equal([204, '', 'true']);
    expect((await remove(two.body.id)).body.detail.code).to.equal('idempotency_key_reused_on_different_route');
  });

  it('nulls the one-time secret in a replay, and never stores it', async () => {
    const key = newKey();
    const body = { url: 'https://public.test/secret-hook', events: ['operation.approved'] };
    const first = await post(body, key, '/v1/webhooks');
    const replay = await post(body, key, '/v1/webhooks');
    expect(first.status).to.equal(201);
    expect(first.body.hmac_secret).to.be.a('string');
    expect(replay.status).to.equal(201);
    expect(replay.text).to.equal(JSON.stringify({ ...first.body, hmac_secret: null }));
    const [stored] = await testDb()('idempotency_records').where({ key });
    expect(stored.response_body).to.not.include(first.body.hmac_secret);
  });

  it('scopes keys per originator: another originator\'s same key executes on its own', async () => {
    const key = newKey();
    const body = person();
    await post(body, key);
    const stranger = await buildIntegrator(client);
    const res = await client.post('/v1/assignors', body, { token: stranger.token, headers: { 'Idempotency-Key': key } });
    expect(res.status).to.equal(201);
    expect(replayed(res)).to.equal(null);
  });

  it('stores a 4xx of the handler and replays it identically', async () => {
    const key = newKey();
    const body = person({ cpf: null });
    const first = await post(body, key);
    const second = await post(body, key);
    expect(first.status).to.equal(422);
    expect(first.body.detail.errors[0].loc).to.deep.equal(['body', 'cpf']);
    expect(second.text).to.equal(first.text);
    expect(replayed(second)).to.equal('true');
  });

  it('stores nothing for a request the schema refuses, so the corrected request executes', async () => {
    const key = newKey();
    const refused = await post({ type: 'F' }, key);
    expect(refused.body.detail.code).to.equal('validation_error');
    const corrected = await post(person(), key);
    expect(corrected.status).to.equal(201);
    expect(replayed(corrected)).to.equal(null);
  });

  it('validates the key length (16 to 80) before the schema and before any effect', async () => {
    const body = person();
    for (const key of ['k'.repeat(15), 'k'.repeat(81), '']) {
      const res = await client.post('/v1/assignors', { type: 'F' }, { token, headers: { 'Idempotency-Key': key } });
      expect(res.status).to.equal(422);
      expect(res.body.detail.code).to.equal('idempotency_key_invalid');
    }
    expect((await post(body, 'k'.repeat(16))).status).to.equal(201);
    expect((await post(person(), 'k'.repeat(80))).status).to.equal(201);
    expect(await assignorsWithDocument(body.cpf)).to.equal(1);
  });

  it('requires the key where the contract does, and its two codes win over the schema\'s validation_error', async () => {
    const document = await client.get('/v1/openapi.json');
    expect(document.body.components.parameters.IdempotencyKeyRequired.required).to.equal(true);
    for (const path of ['/v1/operations/direct', '/v1/stock', '/v1/stock/request-anticipation']) {
      const missing = await client.post(path, {}, { token });
      expect(missing.status, path).to.equal(422);
      expect(missing.body.detail.code, path).to.equal('idempotency_key_required');
      const malformed = await post({}, 'short', path);
      expect(malformed.body.detail.code, path).to.equal('idempotency_key_invalid');
      expect((await post({}, newKey(), path)).body.detail.code, path).to.equal('validation_error');
    }
  });

  it('does not replay a 5xx: the retry with the same key executes', async () => {
    await testDb().raw(`create function fail_insert_for_test() returns trigger language plpgsql as $$
      begin if new.name = 'Explodes On Insert' then raise exception 'injected failure'; end if; return new; end $$`);
    await testDb().raw('create trigger fail_insert_for_test before insert on assignors for each row execute function fail_insert_for_test()');
    const key = newKey();
    const body = person({ name: 'Explodes On Insert' });
    try {
      const failed = await post(body, key);
      expect(failed.status).to.equal(500);
    } finally {
      await testDb().raw('drop trigger fail_insert_for_test on assignors; drop function fail_insert_for_test()');
    }
    const retry = await post(body, key);
    expect(retry.status).to.equal(201);
    expect(replayed(retry)).to.equal(null);
    expect(await assignorsWithDocument(body.cpf)).to.equal(1);
  });

  it('releases the reservation when the client leaves before the commit, so the retry executes once', async () => {
    const body = person();
    const key = newKey();
    const blocker = await blockAssignorDocument(originatorId, body.cpf);
    const abort = new AbortController();
    const abandoned = fetch(`${client.baseUrl}/v1/assignors`, {
      method: 'POST', signal: abort.signal, body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': key },
    }).catch((err: Error) => err);
    await untilAssignorInsertWaits();
    abort.abort();
    expect(await abandoned).to.be.instanceOf(Error);
    await blocker.rollback();
    const retry = await post(body, key);
    expect(retry.status).to.equal(201);
    expect(replayed(retry)).to.equal(null);
    expect(await assignorsWithDocument(body.cpf)).to.equal(1);
  });

  it('ignores the key on reads and on the credential exchanges', async () => {
    const res = await client.get('/v1/assignors', { token, headers: { 'Idempotency-Key': 'short' } });
    expect(res.status).to.equal(200);
    const integrator = await buildIntegrator(client);
    const exchange = (key: string) => client.post('/v1/auth/token', { client_id: integrator.credential.clientId, client_secret: integrator.credential.secret }, { headers: { 'Idempotency-Key': key } });
    const key = newKey();
    const [first, second] = [await exchange(key), await exchange(key)];
    expect(second.status).to.equal(200);
    expect(replayed(second)).to.equal(null);
    expect(first.status).to.equal(200);
    expect((await exchange('short')).status).to.equal(200);
  });
});
