import { expect } from 'chai';
import type { ApiClient } from './http';
import { createDirect, directBody } from './operations';
import { testDb } from './stack';
import { receivable } from './simulate';

/** Shared by the test/api/operations-*.test.ts files. */
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const DISPLAY_NUMBER = /^OP-[0-9A-Z]{8}-[0-9A-Z]{8}$/;

/** A direct body with one receivable of `value` (requested = NFV); assignor fields and receivable fields overridable. */
export function bodyOf(value: string, assignor: Record<string, unknown> = {}, item: Record<string, unknown> = {}): Record<string, unknown> {
  return directBody({ ...assignor, receivables: [receivable({ net_future_value: value, requested_net_future_value: value, ...item })] });
}

/** POST /v1/operations/direct that must answer 201; returns the body. */
export async function created(client: ApiClient, token: string, body: Record<string, unknown> = directBody()) {
  const res = await createDirect(client, token, body);
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

/** POST /v1/operations/direct that must be refused with `status`; returns the `detail`. */
export async function refused(client: ApiClient, token: string, body: Record<string, unknown>, status: number) {
  const res = await createDirect(client, token, body);
  expect(res.status, res.text).to.equal(status);
  return res.body.detail;
}

const TABLES = ['assignors', 'payers', 'operations', 'titles', 'stock_items', 'workflow_outbox'] as const;

/** How many rows of each kind the originator owns: a refusal must leave these unchanged. */
export async function rowsOf(originatorId: string): Promise<Record<(typeof TABLES)[number], number>> {
  const counts = await Promise.all(TABLES.map(async (table) => {
    const [{ n }] = await testDb()(table).where({ originator_id: originatorId }).count({ n: '*' });
    return [table, Number(n)] as const;
  }));
  return Object.fromEntries(counts) as Record<(typeof TABLES)[number], number>;
}

/** What an operator configures on an entity link: its own limit (null inherits the policy default). */
export async function setOwnLimit(table: 'assignors' | 'payers', originatorId: string, document: string, limit: string | null): Promise<void> {
  const changed = await testDb()(table).where({ originator_id: originatorId, document }).update({ limit_brl: limit });
  expect(changed, `${table} ${document}`).to.equal(1);
}
