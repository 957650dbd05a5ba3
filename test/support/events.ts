import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import type { EventType } from '../../domain/events';
import { recordEvent } from '../../db/repositories/events';
import type { ApiClient } from './http';
import { testDb } from './stack';

/** Records an event about `objectId` (a fresh operation by default) as a state change would. */
export async function recordOperationEvent(originatorId: string, overrides: { type?: EventType; objectId?: string; occurredAt?: Date } = {}) {
  const eventId = uuidv7();
  await recordEvent(testDb(), {
    eventId, originatorId, eventType: overrides.type ?? 'operation.approved', occurredAt: overrides.occurredAt ?? new Date(),
    data: { originator_id: originatorId, operation_id: overrides.objectId ?? uuidv7() },
  });
  return eventId;
}

/** `count` events about fresh operations, a second apart from `from` (epoch milliseconds) on: their ids, oldest first. */
export async function recordEventsASecondApart(originatorId: string, count: number, from: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) ids.push(await recordOperationEvent(originatorId, { occurredAt: new Date(from + i * 1000) }));
  return ids;
}

/** Every page of `GET /v1/events` with `query`, following `starting_after`. */
export async function listEvents(client: ApiClient, token: string, query = '') {
  const res = await client.get(`/v1/events${query ? `?${query}` : ''}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body as { items: Record<string, any>[]; has_more: boolean; limit: number };
}

/** The events of one object, oldest first, as `[type, sequence]`. */
export async function eventsAbout(client: ApiClient, token: string, objectId: string): Promise<[string, number][]> {
  const { items } = await listEvents(client, token, `object_id=${objectId}&limit=100`);
  return items.map((e): [string, number] => [e.event_type, e.sequence]).sort((a, b) => a[1] - b[1]);
}
