import { expect } from 'chai';
import { cnpj } from './documents';
import type { ApiClient } from './http';
import { newIdempotencyKey } from './idempotency';
import { receivableWithout } from './simulate';

/** A valid stock item: the test receivable (NFV 10,000.00, due in 30 days, no gross) without a requested value. */
export const stockItem = (overrides: Record<string, unknown> = {}) => receivableWithout(['requested_net_future_value'], overrides);

/** A registration with a company assignor given by its fields (registered on first use). */
export function stockBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Estoque Exemplo Ltda', type: 'J', cnpj: cnpj(), email: 'stock@exemplo.example', items: [stockItem()], ...overrides };
}

export function postStock(client: ApiClient, token: string, body: Record<string, unknown>, key = newIdempotencyKey()) {
  return client.post('/v1/stock', body, { token, headers: { 'Idempotency-Key': key } });
}

/** Registers and returns the created items (asserting the 201). */
export async function stocked(client: ApiClient, token: string, body: Record<string, unknown> = stockBody()) {
  const res = await postStock(client, token, body);
  expect(res.status, res.text).to.equal(201);
  return res.body.items as { id: string; external_id: string; assignor_id: string; net_future_value: string }[];
}

export function anticipationBody(ids: string[], requested: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { stock_item_ids: ids, requested_net_future_value: requested, bank: {}, ...overrides };
}

export function requestAnticipation(client: ApiClient, token: string, body: Record<string, unknown>, key = newIdempotencyKey()) {
  return client.post('/v1/stock/request-anticipation', body, { token, headers: { 'Idempotency-Key': key } });
}

export function simulateAnticipation(client: ApiClient, token: string, body: Record<string, unknown>) {
  return client.post('/v1/stock/simulate-anticipation', body, { token });
}
