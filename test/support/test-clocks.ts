import { expect } from 'chai';
import type { ApiClient } from './http';
import { newIdempotencyKey } from './idempotency';
import { eventually } from './webhooks';

export const createClock = (client: ApiClient, token: string, body: Record<string, unknown> = {}) =>
  client.post('/v1/test-clocks', body, { token, headers: { 'Idempotency-Key': newIdempotencyKey() } });

export const advanceClock = (client: ApiClient, token: string, clockId: string, frozenTime: string) =>
  client.post(`/v1/test-clocks/${clockId}/advance`, { frozen_time: frozenTime }, { token, headers: { 'Idempotency-Key': newIdempotencyKey() } });

/** Polls the clock until it is `ready` again, within `timeoutMs`. */
export async function untilReady(client: ApiClient, token: string, clockId: string, timeoutMs = 60_000) {
  return eventually(async () => {
    const res = await client.get(`/v1/test-clocks/${clockId}`, { token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.status).to.equal('ready');
    return res.body;
  }, timeoutMs);
}

/** A clock created and checked: `ready` at `frozenTime`. */
export async function readyClock(client: ApiClient, token: string, frozenTime: string) {
  const res = await createClock(client, token, { frozen_time: frozenTime, name: 'months after disbursement' });
  expect(res.status, res.text).to.equal(201);
  expect(res.body).to.include({ frozen_time: frozenTime, status: 'ready', name: 'months after disbursement' });
  return res.body as { id: string; frozen_time: string };
}
