import { expect } from 'chai';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import { pspCash } from '../../domain/ledger/chart';
import { transaction, TransactionSpec } from '../../domain/ledger/transaction';
import { unidentifiedReceipt } from '../../domain/ledger/collection-postings';
import { LedgerPostingsRepository } from '../../db/repositories/ledger-postings';
import { LedgerAccountsRepository } from '../../db/repositories/ledger-accounts';
import { LedgerBalancesRepository } from '../../db/repositories/ledger-balances';
import { testDb } from '../support/stack';
import { buildOriginator } from '../support/factories';

const failureOf = (work: () => Promise<unknown>) => work().then(() => { throw new Error('expected a failure'); }, (err: Error) => err);
const at = (iso: string) => new Date(iso);

/** A pending transfer from the payout PSP's cash to suspense, between accounts every originator has. */
const pendingTransfer = (key: string, amount: string, effectiveAt: Date): TransactionSpec => transaction(
  { kind: 'payout', idempotencyKey: key, status: 'pending', effectiveAt, references: {} },
  [{ account: { kind: 'unidentified_receipts' }, amount: Money.of(amount) }],
  [{ account: pspCash('payout'), amount: Money.of(amount) }],
);

describe('the ledger store: balanced, append-only, posted once', () => {
  let originatorId: string;
  const db = () => testDb();
  const postings = (trx: Knex = db()) => new LedgerPostingsRepository(trx, originatorId);
  const balances = () => new LedgerBalancesRepository(db(), originatorId);
  const entriesOf = (key: string) => db()('ledger_entries as e').join('ledger_transactions as t', 't.id', 'e.transaction_id')
    .where({ 't.originator_id': originatorId, 't.idempotency_key': key }).orderBy('e.position').select('e.*');
  const accountId = async (kind: 'unidentified_receipts' | 'bank_cash') => (await new LedgerAccountsRepository(db(), originatorId).ensure([{ kind }])).get(kind)!;

  /** A ledger transaction written by hand, entry by entry, in one database transaction. */
  async function writeByHand(entries: { kind: 'unidentified_receipts' | 'bank_cash'; direction: 'debit' | 'credit'; cents: number }[]): Promise<string> {
    const ids = { unidentified_receipts: await accountId('unidentified_receipts'), bank_cash: await accountId('bank_cash') };
    const id = uuidv7();
    await db().transaction(async (trx) => {
      await trx('ledger_transactions').insert({ id, originator_id: originatorId, kind: 'reversal', status: 'posted', idempotency_key: `hand:${id}`, effective_at: new Date() });
      for (const [position, entry] of entries.entries()) {
        await trx('ledger_entries').insert({
          id: uuidv7(), originator_id: originatorId, transaction_id: id, position, account_id: ids[entry.kind], direction: entry.direction, amount_cents: entry.cents,
        });
      }
    });
    return id;
  }

  beforeEach(async () => {
    originatorId = await buildOriginator();
  });

  it('records a transaction once per idempotency key, in exact cents; a replay records nothing', async () => {
    const spec = unidentifiedReceipt({ receiptId: randomUUID(), amount: Money.of('1234.56'), endToEndId: 'E123' }, at('2026-11-28T10:00:00Z'));
    expect(await db().transaction((trx) => postings(trx).post(spec))).to.equal(true);
    expect(await db().transaction((trx) => postings(trx).post(spec))).to.equal(false);
    const entries = await entriesOf(spec.idempotencyKey);
    expect(entries.map((e) => [e.direction, e.amount_cents])).to.deep.equal([['debit', 123456], ['credit', 123456]]);
    const [cash] = await balances().of((q) => q.where('a.account_key', 'psp_cash:collection'), null);
    expect(cash.posted.toString()).to.equal('1234.56');
  });

  it('records a batch in one go, each once per key: a replayed batch records only what it did not hold, with every entry where it belongs', async () => {
    const first = unidentifiedReceipt({ receiptId: randomUUID(), amount: Money.of('10.01'), endToEndId: 'E1' }, at('2026-11-28T10:00:00Z'));
    const second = pendingTransfer(`batch:${randomUUID()}`, '20.02', at('2026-11-28T10:00:00Z'));
    const third = unidentifiedReceipt({ receiptId: randomUUID(), amount: Money.of('30.03'), endToEndId: 'E3' }, at('2026-11-28T10:00:00Z'));
    expect(await db().transaction((trx) => postings(trx).postAll([first, second]))).to.deep.equal([true, true]);
    expect(await db().transaction((trx) => postings(trx).postAll([first, third, second]))).to.deep.equal([false, true, false]);
    for (const [spec, cents] of [[first, 1001], [second, 2002], [third, 3003]] as const) {
      expect((await entriesOf(spec.idempotencyKey)).map((e) => [e.position, e.direction, e.amount_cents])).to.deep.equal([[0, 'debit', cents], [1, 'credit', cents]]);
    }
    const [cash] = await balances().of((q) => q.where('a.account_key', 'psp_cash:collection'), null);
    expect(cash.posted.toString()).to.equal('40.04');
  });

  it('refuses at commit a transaction whose debits and credits differ, and writes none of it', async () => {
    const err = await failureOf(() => writeByHand([{ kind: 'bank_cash', direction: 'debit', cents: 10_000 }, { kind: 'unidentified_receipts', direction: 'credit', cents: 9_999 }]));
    expect(err.message).to.match(/does not balance: 2 entries, debits minus credits 1 cents/);
    expect(await db()('ledger_transactions').where({ originator_id: originatorId })).to.have.length(0);
  });

  it('refuses a transaction of one entry, and one of none', async () => {
    expect((await failureOf(() => writeByHand([{ kind: 'bank_cash', direction: 'debit', cents: 100 }]))).message).to.match(/does not balance: 1 entries/);
    expect((await failureOf(() => writeByHand([]))).message).to.match(/does not balance: 0 entries/);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of entries, and a balanced pair added to a recorded transaction', async () => {
    const id = await writeByHand([{ kind: 'bank_cash', direction: 'debit', cents: 500 }, { kind: 'unidentified_receipts', direction: 'credit', cents: 500 }]);
    const entries = () => db()('ledger_entries').where({ transaction_id: id });
    expect((await failureOf(() => entries().update({ amount_cents: 600 }))).message).to.match(/append-only: UPDATE refused/);
    expect((await failureOf(() => entries().del())).message).to.match(/append-only: DELETE refused/);
    expect((await failureOf(() => db().raw('truncate ledger_entries cascade'))).message).to.match(/append-only: TRUNCATE refused/);
    expect((await failureOf(() => db()('ledger_transactions').where({ id }).del())).message).to.match(/append-only: DELETE refused/);
    const [debit] = await entries().where({ direction: 'debit' });
    const added = (position: number, direction: string) => ({ ...debit, id: uuidv7(), position, direction });
    const err = await failureOf(() => db().transaction(async (trx) => { await trx('ledger_entries').insert([added(2, 'debit'), added(3, 'credit')]); }));
    expect(err.message).to.match(/already recorded: its entries cannot change/);
    expect((await entries()).map((e) => e.amount_cents)).to.deep.equal([500, 500]);
  });

  it('posts or voids a pending transaction once, and changes nothing else of it', async () => {
    const key = `transfer:${randomUUID()}`;
    await db().transaction((trx) => postings(trx).post(pendingTransfer(key, '80.00', at('2026-11-28T10:00:00Z'))));
    expect(await postings().resolve(key, 'posted', at('2026-11-28T10:05:00Z'))).to.equal(true);
    expect(await postings().resolve(key, 'voided', at('2026-11-28T10:06:00Z'))).to.equal(false);
    expect(await postings().statusOf(key)).to.equal('posted');
    const row = () => db()('ledger_transactions').where({ originator_id: originatorId, idempotency_key: key });
    expect((await failureOf(() => row().update({ status: 'voided' }))).message).to.match(/is posted: only a pending transaction is posted or voided/);
    const other = `transfer:${randomUUID()}`;
    await db().transaction((trx) => postings(trx).post(pendingTransfer(other, '5.00', new Date())));
    const edit = () => db()('ledger_transactions').where({ originator_id: originatorId, idempotency_key: other })
      .update({ status: 'posted', resolved_at: new Date(), resolved_effective_at: new Date(), effective_at: new Date(0) });
    expect((await failureOf(edit)).message).to.match(/changes nothing but its status/);
  });

  it('answers balances as of any moment: pending from the order, posted from the settlement; the trial balance always even', async () => {
    const key = `transfer:${randomUUID()}`;
    await db().transaction((trx) => postings(trx).post(pendingTransfer(key, '250.00', at('2026-11-28T10:00:00Z'))));
    await postings().resolve(key, 'posted', at('2026-11-28T12:00:00Z'));
    const cashAt = async (iso: string | null) => (await balances().of((q) => q.where('a.account_key', 'psp_cash:payout'), iso ? at(iso) : null))[0];
    const before = await cashAt('2026-11-28T09:59:59Z');
    expect([before.posted, before.pending, before.available].map(String)).to.deep.equal(['0.00', '0.00', '0.00']);
    const inFlight = await cashAt('2026-11-28T11:00:00Z');
    expect([inFlight.posted, inFlight.pending, inFlight.available].map(String)).to.deep.equal(['0.00', '-250.00', '-250.00']);
    const settled = await cashAt(null);
    expect([settled.posted, settled.pending, settled.available].map(String)).to.deep.equal(['-250.00', '0.00', '-250.00']);
    for (const asOf of [null, at('2026-11-28T11:00:00Z'), at('2026-11-28T12:00:00Z')]) {
      const lines = await balances().trialBalance(asOf);
      expect(Money.sum(lines.map((l) => l.debits)).toString()).to.equal(Money.sum(lines.map((l) => l.credits)).toString());
    }
    expect((await balances().trialBalance(null)).map((l) => [l.kind, l.debits.toString(), l.credits.toString()]))
      .to.deep.equal([['psp_cash', '0.00', '250.00'], ['unidentified_receipts', '250.00', '0.00']]);
  });

  it('keeps each originator\'s books apart: an entry cannot move another originator\'s account', async () => {
    const id = await writeByHand([{ kind: 'bank_cash', direction: 'debit', cents: 700 }, { kind: 'unidentified_receipts', direction: 'credit', cents: 700 }]);
    const [entry] = await db()('ledger_entries').where({ transaction_id: id }).orderBy('position');
    const stranger = await buildOriginator();
    const theirs = (await new LedgerAccountsRepository(db(), stranger).ensure([{ kind: 'bank_cash' }])).get('bank_cash');
    const err = await failureOf(() => db().transaction(async (trx) => {
      const tx = uuidv7();
      await trx('ledger_transactions').insert({ id: tx, originator_id: originatorId, kind: 'reversal', status: 'posted', idempotency_key: `hand:${tx}`, effective_at: new Date() });
      await trx('ledger_entries').insert([{ ...entry, id: uuidv7(), transaction_id: tx, account_id: theirs }, { ...entry, id: uuidv7(), transaction_id: tx, position: 1, direction: 'credit' }]);
    }));
    expect(err.message).to.match(/foreign key/);
  });
});
