import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { recordEvent } from '../../db/repositories/events';
import { purgeExpiredEvents } from '../../db/repositories/events';
import { keptSince } from '../../domain/event-retention';
import { sharedApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildCredential, buildIntegrator, tokenFor } from '../support/factories';
import { up as grantEventRead } from '../../db/migrations/20261125152703_event_read_scope';
import { listEvents, recordEventsASecondApart, recordOperationEvent } from '../support/events';
import { scrape, valueOf } from '../support/metrics';

const DAY_MS = 86_400_000;

/** `GET /v1/events`: the originator's events of 30 days, filtered, paged by cursor, ordered per object. */
describe('events API', () => {
  let client: ApiClient;
  let metricsUrl: string;

  before(async () => {
    const api = await sharedApi();
    client = new ApiClient(api.url);
    metricsUrl = api.metricsUrl;
  });

  it('lists newest first in pages that stay put while new events arrive, forwards and back', async () => {
    const { originatorId, token } = await buildIntegrator(client);
    const base = Date.now() - 60_000;
    const ids = await recordEventsASecondApart(originatorId, 5, base);
    const newestFirst = [...ids].reverse();

    const first = await listEvents(client, token, 'limit=2');
    expect(first.items.map((e) => e.event_id)).to.deep.equal(newestFirst.slice(0, 2));
    expect(first).to.include({ has_more: true, limit: 2 });
    await recordOperationEvent(originatorId);
    const second = await listEvents(client, token, `limit=2&starting_after=${first.items[1].event_id}`);
    expect(second.items.map((e) => e.event_id)).to.deep.equal(newestFirst.slice(2, 4));
    const last = await listEvents(client, token, `limit=2&starting_after=${second.items[1].event_id}`);
    expect(last.items.map((e) => e.event_id)).to.deep.equal(newestFirst.slice(4));
    expect(last.has_more).to.equal(false);
    const back = await listEvents(client, token, `limit=2&ending_before=${second.items[0].event_id}`);
    expect(back.items.map((e) => e.event_id)).to.deep.equal(newestFirst.slice(0, 2));
    expect(back.has_more).to.equal(true);
    const both = await client.get(`/v1/events?starting_after=${ids[0]}&ending_before=${ids[1]}`, { token });
    expect(both.status).to.equal(422);
    expect(both.body.detail.code).to.equal('event_cursors_exclusive');
  });

  it('answers a page that has not moved with the body kept from the last time, byte for byte, and a moved page anew', async () => {
    const { originatorId, token } = await buildIntegrator(client);
    const base = Date.now() - 60_000;
    const ids = await recordEventsASecondApart(originatorId, 3, base);
    const newestFirst = [...ids].reverse();
    const pageHits = async () => valueOf(await scrape(metricsUrl), 'receivables_cache_requests_total', { cache: 'event_pages', result: 'hit' });
    const first = await client.get('/v1/events?limit=3', { token });
    expect(first.body.items.map((e: { event_id: string }) => e.event_id)).to.deep.equal(newestFirst);
    // Any notification (other tests' workflows still writing) may keep one answer from being kept: a few tries.
    let [hits, again] = [0, first];
    for (let attempt = 0; attempt < 5 && hits === 0; attempt += 1) {
      const before = await pageHits();
      again = await client.get('/v1/events?limit=3', { token });
      hits = (await pageHits()) - before;
    }
    expect(hits).to.equal(1);
    expect(again.text).to.equal(first.text);
    expect(again.text).to.equal(JSON.stringify(again.body));
    // An older event: the same three on the page, but one beyond them.
    await recordOperationEvent(originatorId, { occurredAt: new Date(base - 1000) });
    const more = await listEvents(client, token, 'limit=3');
    expect(more.items.map((e) => e.event_id)).to.deep.equal(newestFirst);
    expect(more.has_more).to.equal(true);
    // A newer one moves the page.
    const newest = await recordOperationEvent(originatorId);
    const moved = await listEvents(client, token, 'limit=3');
    expect(moved.items.map((e) => e.event_id)).to.deep.equal([newest, ...newestFirst.slice(0, 2)]);
    expect((await listEvents(client, token, 'limit=2')).items.map((e) => e.event_id)).to.deep.equal([newest, newestFirst[0]]);
  });

  it('pages through events of one millisecond, microseconds apart, without skipping or repeating one', async () => {
    const { originatorId, token } = await buildIntegrator(client);
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push(await recordOperationEvent(originatorId));
    // Recorded events carry a JS instant (milliseconds); Postgres keeps microseconds, which a cursor must not lose.
    await testDb().raw(`update events set occurred_at = date_trunc('milliseconds', now()) - interval '1 second' + (array_position(?::uuid[], event_id) * interval '100 microseconds')
      where originator_id = ?`, [ids, originatorId]);
    const newestFirst = [...ids].reverse();
    const walk = async (cursor: 'starting_after' | 'ending_before', from: string | null) => {
      const seen: string[] = [];
      for (let at = from; ;) {
        const page = await listEvents(client, token, `limit=1${at ? `&${cursor}=${at}` : ''}`);
        seen.push(...page.items.map((e) => e.event_id));
        if (!page.has_more) return seen;
        at = page.items[0].event_id;
      }
    };
    expect(await walk('starting_after', null)).to.deep.equal(newestFirst);
    expect(await walk('ending_before', newestFirst[3])).to.deep.equal(newestFirst.slice(0, 3).reverse());
  });

  it('filters by kind (repeated or as a comma list), by creation time and by object', async () => {
    const { originatorId, token } = await buildIntegrator(client);
    const operation = uuidv7();
    const base = Date.now() - 10 * 60_000;
    const created = await recordOperationEvent(originatorId, { type: 'operation.created', objectId: operation, occurredAt: new Date(base) });
    const approved = await recordOperationEvent(originatorId, { type: 'operation.approved', objectId: operation, occurredAt: new Date(base + 60_000) });
    const other = await recordOperationEvent(originatorId, { type: 'operation.cancelled', occurredAt: new Date(base + 120_000) });
    const ids = async (query: string) => (await listEvents(client, token, query)).items.map((e) => e.event_id);

    expect(await ids('type=operation.created&type=operation.cancelled')).to.deep.equal([other, created]);
    expect(await ids('type=operation.created,operation.approved')).to.deep.equal([approved, created]);
    expect(await ids(`created[gte]=${new Date(base + 60_000).toISOString()}&created[lt]=${new Date(base + 120_000).toISOString()}`)).to.deep.equal([approved]);
    expect(await ids(`object_id=${operation}`)).to.deep.equal([approved, created]);
    const unknownKind = await client.get('/v1/events?type=operation.exploded', { token });
    expect(unknownKind.status).to.equal(422);
    expect(unknownKind.body.detail.code).to.equal('validation_error');
  });

  it('numbers each object\'s events from 1 in the transaction that records them, without gaps under concurrency', async () => {
    const { originatorId, token } = await buildIntegrator(client);
    const operation = uuidv7();
    await Promise.all(Array.from({ length: 20 }, () => testDb().transaction(async (trx) => {
      await recordEvent(trx, { eventId: uuidv7(), originatorId, eventType: 'operation.approved', occurredAt: new Date(), data: { originator_id: originatorId, operation_id: operation } });
    })));
    const replayed = (await testDb()('events').where({ object_id: operation }).first()).event_id;
    await recordEvent(testDb(), { eventId: replayed, originatorId, eventType: 'operation.approved', occurredAt: new Date(), data: { originator_id: originatorId, operation_id: operation } });
    const { items } = await listEvents(client, token, `object_id=${operation}&limit=100`);
    expect(items.map((e) => e.sequence).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(items.every((e) => e.object_id === operation)).to.equal(true);
  });

  it('answers one event in its delivery envelope, and 404 for another originator\'s', async () => {
    const a = await buildIntegrator(client);
    const b = await buildIntegrator(client);
    const eventId = await recordOperationEvent(a.originatorId);
    const own = await client.get(`/v1/events/${eventId}`, { token: a.token });
    expect(own.status, own.text).to.equal(200);
    expect(own.body).to.have.keys('event_type', 'event_id', 'occurred_at', 'object_id', 'sequence', 'data');
    expect(own.body).to.include({ event_id: eventId, event_type: 'operation.approved', sequence: 1 });
    const foreign = await client.get(`/v1/events/${eventId}`, { token: b.token });
    expect(foreign.status).to.equal(404);
    expect(foreign.body).to.deep.equal({ detail: 'event_not_found' });
    expect((await listEvents(client, b.token)).items).to.deep.equal([]);
    const foreignCursor = await client.get(`/v1/events?starting_after=${eventId}`, { token: b.token });
    expect(foreignCursor.status).to.equal(422);
    expect(foreignCursor.body.detail.code).to.equal('event_cursor_not_found');
  });

  it('keeps 30 days: an older event is neither listed, read nor a cursor, and the expiry deletes it', async () => {
    const { originatorId, token } = await buildIntegrator(client);
    const old = await recordOperationEvent(originatorId, { occurredAt: new Date(Date.now() - 31 * DAY_MS) });
    const recent = await recordOperationEvent(originatorId, { occurredAt: new Date(Date.now() - 29 * DAY_MS) });
    expect((await listEvents(client, token)).items.map((e) => e.event_id)).to.deep.equal([recent]);
    expect((await client.get(`/v1/events/${old}`, { token })).status).to.equal(404);
    const pastTheWindow = await client.get(`/v1/events?starting_after=${old}`, { token });
    expect(pastTheWindow.status, pastTheWindow.text).to.equal(422);
    expect(pastTheWindow.text).to.include('event_cursor_not_found');
    await purgeExpiredEvents(testDb(), keptSince(new Date()));
    expect(await testDb()('events').whereIn('event_id', [old, recent]).pluck('event_id')).to.deep.equal([recent]);
  });

  it('grants event:read by migration to credentials holding a read scope, and to no other', async () => {
    const reader = await buildCredential({ scopes: ['operation:read'] });
    const writer = await buildCredential({ scopes: ['simulation:create'] });
    await grantEventRead(testDb());
    await grantEventRead(testDb());
    const scopesOf = async (id: string) => (await testDb()('api_credentials').where({ id }).first()).scopes;
    expect(await scopesOf(reader.id)).to.deep.equal(['operation:read', 'event:read']);
    expect(await scopesOf(writer.id)).to.deep.equal(['simulation:create']);
  });

  it('needs event:read, which credentials get with the other read scopes', async () => {
    const { credential } = await buildIntegrator(client);
    const without = await tokenFor(client, credential, ['operation:read']);
    const refused = await client.get('/v1/events', { token: without });
    expect(refused.status).to.equal(403);
    expect(refused.body.detail).to.include({ code: 'scope_insufficient' });
    expect(refused.body.detail.required).to.deep.equal(['event:read']);
    const doc = (await client.get('/v1/openapi.json')).body;
    expect(doc.components.securitySchemes.clientCredentials.flows.clientCredentials.scopes).to.have.property('event:read');
  });

  it('answers the longest type filter the document allows (about 30 KB of query) rather than a bare 431 (found by the fuzz run)', async () => {
    const { originatorId, token } = await buildIntegrator(client);
    const id = await recordOperationEvent(originatorId);
    const names = (n: number) => Array.from({ length: n }, (_, i) => ['operation.created', 'operation.approved', 'title.paid'][i % 3]);
    const value = names(60).join(',').slice(0, 428).replace(/,[^,]*$/, '');
    const query = Array.from({ length: 50 }, () => `type=${encodeURIComponent(value)}`).join('&');
    expect(query.length).to.be.above(20_000);
    expect((await listEvents(client, token, query)).items.map((e) => e.event_id)).to.include(id);
  });
});
