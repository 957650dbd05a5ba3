import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { ApiClient } from './http';
import { testDb } from './stack';
import { createDirect, directBody } from './operations';
import { dueIn, receivable } from './simulate';

export const payerPayment = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({ paid_amount_brl: '100.00', external_id: `boleto-${randomUUID()}`, ...overrides });

export const simulatePayerPayment = (client: ApiClient, token: string, titleId: string, body: Record<string, unknown>) =>
  client.post(`/v1/sandbox/titles/${titleId}/payer-payments`, body, { token });

export async function readTitle(client: ApiClient, token: string, titleId: string) {
  const res = await client.get(`/v1/titles/${titleId}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body;
}

/**
 * An operation of a fresh assignor with a title due in 30 days and, when `overdue`, one due
 * yesterday (with a policy of 0 grace days it is overdue as soon as it is tracked). The first
 * keeps the operation priced within the policy's CET range.
 */
export async function operationWithTitles(client: ApiClient, token: string, options: { current: string; overdue?: string }) {
  const receivables = [receivable({ external_id: 'current', net_future_value: options.current, requested_net_future_value: options.current })];
  if (options.overdue) receivables.push(receivable({ external_id: 'overdue', due_date: dueIn(-1), net_future_value: options.overdue, requested_net_future_value: options.overdue }));
  const body = directBody({ email: `titles+${randomUUID()}@example.com`, receivables });
  const res = await createDirect(client, token, body);
  expect(res.status, res.text).to.equal(201);
  const titleOf = (externalId: string) => (res.body.titles as { id: string; external_id: string }[]).find((t) => t.external_id === externalId)!.id;
  return { operation: res.body, body, current: titleOf('current'), overdue: options.overdue ? titleOf('overdue') : null };
}

/**
 * The assignor's open exposure as the credit limit engine measures it: an operation one cent
 * above the assignor's default limit (1,000,000.00) is always refused, and says how much is open.
 */
export async function assignorExposure(client: ApiClient, token: string, body: Record<string, unknown>): Promise<string> {
  const res = await createDirect(client, token, { ...body, receivables: [receivable({ net_future_value: '1000000.01', requested_net_future_value: '1000000.01' })] });
  expect(res.status, res.text).to.equal(403);
  return res.body.detail.open_exposure_brl;
}

export const titlePaidEvents = (titleId: string) => testDb()('events').where({ event_type: 'title.paid' }).whereRaw("data->>'title_id' = ?", [titleId]);

/** A payer payment as staff record it (any originator's title). */
export const backofficePayerPayment = (client: ApiClient, backofficeToken: string, titleId: string, body: Record<string, unknown>) =>
  client.post(`/v1/backoffice/titles/${titleId}/payer-payments`, body, { token: backofficeToken });
