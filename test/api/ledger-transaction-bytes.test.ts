import { expect } from 'chai';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import type { AccountRef } from '../../domain/ledger/chart';
import { accountKey } from '../../domain/ledger/chart';
import { LedgerAccountsRepository } from '../../db/repositories/ledger-accounts';
import type { Schema } from '../../api/openapi/contract-types';
import { anotherApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { createDirect, directBody, operationsStack } from '../support/operations';

type Row = Record<string, any>;

/**
 * The answer as the route's first presenter built it, kept as the oracle: each row read by knex,
 * amounts through Money, moments through Date, the page through JSON.stringify. The route now has
 * Postgres write the page; its bytes must not move.
 */
function presented(tx: Row, entries: Row[]): Schema<'LedgerTransaction'> {
  return {
    id: tx.id, kind: tx.kind, status: tx.status,
    effective_at: tx.effective_at.toISOString(), recorded_at: tx.recorded_at.toISOString(), resolved_at: tx.resolved_effective_at?.toISOString() ?? null,
    operation_id: tx.operation_id, title_id: tx.title_id, payable_id: tx.payable_id, assignor_id: tx.assignor_id,
    pix_end_to_end_id: tx.pix_end_to_end_id, external_id: tx.external_id, reverses_id: tx.reverses_id,
    entries: entries.filter((entry) => entry.transaction_id === tx.id).map((entry) => ({
      account_id: entry.account_id, account_kind: entry.kind, direction: entry.direction, amount: Money.fromCents(entry.amount_cents).toString(),
      operation_id: entry.operation_id, title_id: entry.title_id,
    })),
  };
}

/** Free text as integrators send it: quotes, backslashes, control characters, accents, astral and separator characters. */
const AWKWARD = 'NF "12"\\34/5\n\t\r\b\f\u0001\u001f\u007f ação 😀 \u2028\u2029 <tag>&amp;';

describe('GET /v1/ledger/transactions: the bytes of the page', function () {
  this.timeout(120_000);
  const stack = operationsStack();
  let client: ApiClient;
  let operationId: string;
  let titleId: string;
  let assignorId: string;
  let cashId: string;
  const ids: string[] = [];

  /** One ledger transaction written by hand, so its moments can carry microseconds (`at` is SQL). */
  async function write(trx: Knex.Transaction, spec: {
    kind: string; status: string; at: string; references?: Row; entries: { account: AccountRef; direction: 'debit' | 'credit'; cents: number; operationId?: string; titleId?: string }[];
  }): Promise<void> {
    const accounts = await new LedgerAccountsRepository(trx, stack.originatorId).ensure(spec.entries.map((entry) => entry.account));
    const id = uuidv7();
    await trx('ledger_transactions').insert({
      id, originator_id: stack.originatorId, kind: spec.kind, status: spec.status, idempotency_key: `bytes:${id}`, effective_at: trx.raw('?::timestamptz', [spec.at]), ...spec.references,
    });
    await trx('ledger_entries').insert(spec.entries.map((entry, position) => ({
      id: uuidv7(), originator_id: stack.originatorId, transaction_id: id, position, account_id: accounts.get(accountKey(entry.account)),
      direction: entry.direction, amount_cents: entry.cents, operation_id: entry.operationId ?? null, title_id: entry.titleId ?? null,
    })));
    ids.push(id);
  }

  before(async () => {
    // An api that validates its replies sends them through res.json, which would write parsed bytes again and hide a difference.
    client = new ApiClient((await anotherApi({ OPENAPI_VALIDATE_RESPONSES: 'false' })).url);
    const created = await createDirect(stack.client, stack.token, directBody());
    expect(created.status, created.text).to.equal(201);
    operationId = created.body.id;
    titleId = created.body.titles[0].id;
    assignorId = (await testDb()('operations').where({ id: operationId }).first('assignor_id')).assignor_id;
    const receivable: AccountRef = { kind: 'title_receivable', titleId, operationId, assignorId };
    const price: AccountRef = { kind: 'assignor_price_payable', operationId, assignorId };
    const cash: AccountRef = { kind: 'psp_cash', psp: 'payout' };
    const suspense: AccountRef = { kind: 'unidentified_receipts' };
    const onTitle = { operationId, titleId };
    await testDb().transaction(async (trx) => {
      // Amounts of one cent, ten, a whole real, and large; moments on a millisecond's edge and inside one.
      await write(trx, {
        kind: 'acquisition', status: 'posted', at: '2026-11-02T03:04:05.999999Z', references: { operation_id: operationId, title_id: titleId, assignor_id: assignorId },
        entries: [
          { account: receivable, direction: 'debit', cents: 123_456_789_01, ...onTitle },
          { account: price, direction: 'credit', cents: 123_456_789_00, operationId },
          { account: suspense, direction: 'credit', cents: 1 },
        ],
      });
      await write(trx, {
        kind: 'payout', status: 'pending', at: '2026-11-02T03:04:06Z', references: { operation_id: operationId, assignor_id: assignorId, pix_end_to_end_id: AWKWARD, external_id: 'E2E-1' },
        entries: [{ account: price, direction: 'debit', cents: 10, operationId }, { account: cash, direction: 'credit', cents: 10 }],
      });
      await write(trx, {
        kind: 'unidentified_receipt', status: 'pending', at: '2026-11-03T00:00:00.0005Z', references: { external_id: AWKWARD },
        entries: [{ account: cash, direction: 'debit', cents: 100 }, { account: suspense, direction: 'credit', cents: 100 }],
      });
    });
    await testDb()('ledger_transactions').where({ id: ids[1] }).update({ status: 'posted', resolved_effective_at: testDb().raw("'2026-11-04T23:59:59.123999Z'"), resolved_at: testDb().fn.now() });
    await testDb()('ledger_transactions').where({ id: ids[2] }).update({ status: 'voided', resolved_effective_at: testDb().raw("'2026-11-05T12:00:00Z'"), resolved_at: testDb().fn.now() });
    await testDb().transaction((trx) => write(trx, {
      kind: 'reversal', status: 'posted', at: '2026-11-06T10:00:00.1Z', references: { operation_id: operationId, reverses_id: ids[0] },
      entries: [{ account: suspense, direction: 'debit', cents: 1 }, { account: cash, direction: 'credit', cents: 1 }],
    }));
    cashId = (await testDb()('ledger_accounts').where({ originator_id: stack.originatorId, account_key: 'psp_cash:payout' }).first('id')).id;
  });

  /** The transactions `listed`, in the route's order, as the first presenter answered them. */
  async function expectedItems(listed: (tx: Row) => boolean): Promise<Schema<'LedgerTransaction'>[]> {
    const rows: Row[] = (await testDb()('ledger_transactions').where({ originator_id: stack.originatorId }).orderBy('id')).filter(listed);
    const entries: Row[] = rows.length === 0 ? [] : await testDb()('ledger_entries as e').join('ledger_accounts as a', 'a.id', 'e.account_id')
      .whereIn('e.transaction_id', rows.map((row) => row.id)).orderBy('e.transaction_id').orderBy('e.position')
      .select('e.transaction_id', 'e.account_id', 'a.kind', 'e.direction', 'e.amount_cents', 'e.operation_id', 'e.title_id');
    return rows.map((row) => presented(row, entries));
  }

  const bytesOf = async (path: string) => {
    const res = await client.get(path, { token: stack.token });
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(Number(res.headers.get('content-length'))).to.equal(Buffer.byteLength(res.text));
    return res.text;
  };

  it('answers each filter, page and empty page with the bytes the presenter wrote', async () => {
    const cashEntries = new Set((await testDb()('ledger_entries').where({ account_id: cashId }).select('transaction_id')).map((row) => row.transaction_id));
    const from = new Date('2026-11-02T03:04:06Z');
    const to = new Date('2026-11-06T10:00:00.1Z');
    const cases: [string, (tx: Row) => boolean, number, number][] = [
      ['', () => true, 50, 0],
      [`?operation_id=${operationId}`, (tx) => tx.operation_id === operationId, 50, 0],
      [`?operation_id=${operationId}&limit=2&offset=1`, (tx) => tx.operation_id === operationId, 2, 1],
      [`?title_id=${titleId}`, (tx) => tx.title_id === titleId, 50, 0],
      [`?account_id=${cashId}`, (tx) => cashEntries.has(tx.id), 50, 0],
      [`?effective_from=${from.toISOString()}&effective_to=${to.toISOString()}`, (tx) => tx.effective_at >= from && tx.effective_at < to, 50, 0],
      [`?operation_id=${operationId}&offset=10`, (tx) => tx.operation_id === operationId, 50, 10],
      [`?title_id=${uuidv7()}`, () => false, 50, 0],
    ];
    for (const [query, listed, limit, offset] of cases) {
      const items = await expectedItems(listed);
      const expected = JSON.stringify({ items: items.slice(offset, offset + limit), total: items.length, limit, offset });
      expect(await bytesOf(`/v1/ledger/transactions${query}`), query).to.equal(expected);
    }
  });

  it('answers one transaction with the bytes the presenter wrote', async () => {
    for (const id of ids) {
      const [item] = await expectedItems((tx) => tx.id === id);
      expect(await bytesOf(`/v1/ledger/transactions/${id}`)).to.equal(JSON.stringify(item));
    }
  });
});
