import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { ApiClient } from './http';
import { cnpj } from './documents';
import { today } from './simulate';

/** A company assignor of the caller's originator, registered through the api. */
export async function buildAssignor(client: ApiClient, token: string, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/v1/assignors', { name: 'Oficina Norte Ltda', type: 'J', cnpj: cnpj(), email: 'finance@oficina.example', ...overrides }, { token });
  expect(res.status, res.text).to.equal(201);
  return res.body as { id: string; cnpj: string; email: string };
}

/** A payable opened by hand; `amount` and the rest of the body can be overridden. */
export async function buildPayable(client: ApiClient, token: string, assignorId: string, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/v1/assignor-payables', { assignor_id: assignorId, reason: 'Chargeback of a duplicate', amount_brl: '1000.00', due_date: today(), ...overrides }, { token });
  expect(res.status, res.text).to.equal(201);
  return res.body as { id: string; remaining: string; status: string };
}

export const payment = (overrides: Record<string, unknown> = {}) => ({ source: 'ASSIGNOR_PIX_DIRECT', paid_amount_brl: '100.00', external_id: `pix-${randomUUID()}`, ...overrides });

export const pay = (client: ApiClient, token: string, payableId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  client.post(`/v1/assignor-payables/${payableId}/payments`, body, { token, headers });

export async function readPayable(client: ApiClient, token: string, payableId: string) {
  const res = await client.get(`/v1/assignor-payables/${payableId}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body;
}
