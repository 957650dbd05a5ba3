import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { businessDate } from '../../domain/pricing';
import { backfillLedger } from '../../db/ledger-backfill';
import { anotherApi, sharedSandbox, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { operationsStack } from '../support/operations';
import { collectOnPix, rawPsp } from '../support/pix-collection';
import { booksOf, expectEvenTrialBalance } from '../support/ledger';

type Line = { id: string; account: string; kind: string; direction: string; amount: string; at: string };
type Run = { id: string; psp: string; status: string; mismatch_count: number; psp_lines: number; ledger_lines: number };
type Entry = { account_kind: string; direction: string; amount: string };

/** What each line books: its transaction's kind and its entries, debit first. */
const BOOKED: Record<string, { kind: string; entries: (psp: string) => string[] }> = {
  top_up: { kind: 'top_up', entries: (psp) => [`debit psp_cash:${psp}`, 'credit funding_transfers'] },
  sweep: { kind: 'sweep', entries: (psp) => ['debit funding_transfers', `credit psp_cash:${psp}`] },
  fee: { kind: 'psp_fee', entries: (psp) => ['debit psp_fee_expense', `credit psp_cash:${psp}`] },
};

describe('reconciliation books the PSP lines no call of ours causes: top-ups, sweeps, fees', function () {
  this.timeout(120_000);
  const stack = operationsStack();
  const today = () => businessDate(new Date());
  const booked: Line[] = [];

  async function reconcileToday() {
    const res = await stack.client.post('/v1/backoffice/ledger/reconcile', { business_date: today() }, { token: stack.backoffice });
    expect(res.status, res.text).to.equal(200);
    return res.body as { reconciliations: Run[]; mismatch_count: number };
  }

  async function mismatchesOf(run: Run) {
    const res = await stack.client.get(`/v1/backoffice/ledger/reconciliations/${run.id}`, { token: stack.backoffice });
    expect(res.status, res.text).to.equal(200);
    return res.body.mismatches as { kind: string; reference: string | null; originator_id: string | null; ledger_amount: string | null; psp_amount: string | null }[];
  }

  async function fundingTransactions() {
    const res = await stack.client.get('/v1/ledger/transactions?limit=100', { token: stack.token });
    expect(res.status, res.text).to.equal(200);
    return (res.body.items as { kind: string; status: string; external_id: string; effective_at: string; entries: Entry[] }[])
      .filter((t) => ['top_up', 'sweep', 'psp_fee'].includes(t.kind));
  }

  async function postedOf(kind: string, psp?: string): Promise<string> {
    const res = await stack.client.get(`/v1/ledger/accounts?kind=${kind}`, { token: stack.token });
    expect(res.status, res.text).to.equal(200);
    const account = (res.body.items as { psp: string | null; posted: string }[]).find((a) => psp === undefined || a.psp === psp);
    return account!.posted;
  }

  it('books each top-up, sweep and fee once, at the PSP\'s time, across two runs that both reconcile clean', async () => {
    for (const line of [
      { account: 'payout', kind: 'top_up', amount: '5000.00' },
      { account: 'payout', kind: 'fee', amount: '1.50' },
      { account: 'payout', kind: 'sweep', amount: '2000.00' },
      { account: 'collection', kind: 'top_up', amount: '1000.00' },
      { account: 'collection', kind: 'sweep', amount: '700.00' },
      { account: 'collection', kind: 'fee', amount: 0.35 },
    ]) {
      const res = await stack.client.post('/v1/sandbox/pix/statement-lines', line, { token: stack.token });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ account: line.account, kind: line.kind, direction: line.kind === 'top_up' ? 'in' : 'out', amount: Number(line.amount).toFixed(2) });
      booked.push(res.body);
    }

    for (const run of [1, 2]) {
      const outcome = await reconcileToday();
      expect(outcome.mismatch_count, `run ${run}`).to.equal(0);
      expect(outcome.reconciliations.map((r) => [r.psp, r.status]).sort(), `run ${run}`).to.deep.equal([['collection', 'clean'], ['payout', 'clean']]);
      // At least these three lines on each account: a run of chosen files shares the sandbox PSPs and this database.
      for (const r of outcome.reconciliations) {
        expect(r.psp_lines, `${r.psp}, run ${run}`).to.be.at.least(3);
        expect(r.ledger_lines, `${r.psp}, run ${run}`).to.equal(r.psp_lines);
      }

      const transactions = await fundingTransactions();
      expect(transactions, `run ${run}`).to.have.length(booked.length);
      for (const line of booked) {
        const found = transactions.filter((t) => t.external_id === line.id);
        expect(found, `${line.account} ${line.kind}`).to.have.length(1);
        expect(found[0]).to.include({ kind: BOOKED[line.kind].kind, status: 'posted' });
        expect(new Date(found[0].effective_at).toISOString()).to.equal(new Date(line.at).toISOString());
        expect(found[0].entries.map((e) => `${e.direction} ${e.account_kind}${e.account_kind === 'psp_cash' ? `:${line.account}` : ''}`))
          .to.deep.equal(BOOKED[line.kind].entries(line.account));
        expect(found[0].entries.map((e) => e.amount)).to.deep.equal([line.amount, line.amount]);
      }
    }

    expect(await postedOf('funding_transfers')).to.equal('3300.00');
    expect(await postedOf('psp_fee_expense')).to.equal('1.85');
    expect(await postedOf('psp_cash', 'payout')).to.equal('2998.50');
    expect(await postedOf('psp_cash', 'collection')).to.equal('299.65');
    const trial = await stack.client.get('/v1/ledger/trial-balance', { token: stack.token });
    expect(trial.status, trial.text).to.equal(200);
    expect(trial.body.debits).to.equal(trial.body.credits);
    expect(trial.body.lines.map((l: { kind: string }) => l.kind)).to.include.members(['funding_transfers', 'psp_fee_expense']);
    await expectEvenTrialBalance(stack.originatorId);
  });

  it('leaves those postings alone when ledger:backfill runs, twice', async () => {
    const before = await booksOf(stack.originatorId);
    expect(before.transactions.filter((t) => / (top_up|sweep|psp_fee) posted$/.test(t))).to.have.length(6);
    await backfillLedger(testDb());
    expect(await booksOf(stack.originatorId)).to.deep.equal(before);
    expect(await backfillLedger(testDb())).to.equal(0);
    expect(await booksOf(stack.originatorId)).to.deep.equal(before);
    await expectEvenTrialBalance(stack.originatorId);
  });

  it('refuses an amount that is not positive, and books nothing', async () => {
    for (const amount of ['0.00', '-5.00']) {
      const res = await stack.client.post('/v1/sandbox/pix/statement-lines', { account: 'payout', kind: 'fee', amount }, { token: stack.token });
      expect(res.status, `${amount}: ${res.text}`).to.equal(422);
    }
    const unknown = await stack.client.post('/v1/sandbox/pix/statement-lines', { account: 'payout', kind: 'dividend', amount: '1.00' }, { token: stack.token });
    expect(unknown.status, unknown.text).to.equal(422);
    const { pixUrl } = await sharedSandbox();
    const statement = await fetch(`${pixUrl}/statement?from=${new Date(0).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`).then((r) => r.json());
    expect(statement.lines.filter((line: { sub_account: string | null }) => line.sub_account === stack.originatorId)).to.have.length(3);
  });

  it('answers 409 for the collection account where no PIX is collected, and 502 when the sandbox PSP cannot be reached', async () => {
    const line = { kind: 'top_up', amount: '10.00' };
    const noCollection = new ApiClient((await anotherApi({ PIX_COLLECTION_CALLBACK_SECRET: '' })).url);
    const refused = await noCollection.post('/v1/sandbox/pix/statement-lines', { ...line, account: 'collection' }, { token: stack.token });
    expect(refused.status, refused.text).to.equal(409);
    expect(refused.body.detail).to.include({ code: 'psp_account_not_in_use' });
    const unreachable = new ApiClient((await anotherApi({ PIX_URL: 'http://127.0.0.1:9/pix' })).url);
    const down = await unreachable.post('/v1/sandbox/pix/statement-lines', { ...line, account: 'payout' }, { token: stack.token });
    expect(down.status, down.text).to.equal(502);
    expect(down.body.detail).to.equal('pix_unavailable');
  });

  it('still reports what it cannot book, a line naming no originator we know and a PIX the API never heard of, until they are known', async () => {
    const { pixUrl } = await sharedSandbox();
    const subAccount = randomUUID();
    const stranger = await fetch(`${pixUrl}/sandbox/statement-lines`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'fee', amount: '2.00', sub_account: subAccount }),
    }).then((r) => r.json() as Promise<{ line_id: string }>);
    const unheard = await rawPsp('POST', '/sandbox/pix', { chave: await collectOnPix(stack.originatorId), valor: '12.00', webhook: 'lost' });
    expect(unheard.status).to.equal(201);
    const endToEndId = (unheard.body as { endToEndId: string }).endToEndId;

    const outcome = await reconcileToday();
    const runOf = (psp: string) => outcome.reconciliations.find((r) => r.psp === psp)!;
    const payout = await mismatchesOf(runOf('payout'));
    expect(payout.map((m) => m.kind).sort()).to.deep.equal(['closing_balance_differs', 'missing_in_ledger']);
    expect(payout.find((m) => m.kind === 'missing_in_ledger')).to.include({ reference: stranger.line_id, originator_id: null, ledger_amount: null, psp_amount: '2.00' });
    const collection = await mismatchesOf(runOf('collection'));
    expect(collection.map((m) => m.kind).sort()).to.deep.equal(['closing_balance_differs', 'missing_in_ledger']);
    expect(collection.find((m) => m.kind === 'missing_in_ledger')).to.include({ reference: endToEndId, ledger_amount: null, psp_amount: '12.00' });
    expect(await testDb()('ledger_transactions').where({ external_id: stranger.line_id })).to.have.length(0);
    expect(await fundingTransactions()).to.have.length(6);

    // The sub-account turns out to be an originator of ours, and the collection sweep finds the PIX its webhook lost:
    // the next run books the fee, the sweep booked the PIX to suspense, and the day reconciles clean again.
    await testDb()('originators').insert({ id: subAccount, name: 'Originator the PSP named' });
    const swept = await stack.client.post('/v1/backoffice/collection/sweep', {}, { token: stack.backoffice });
    expect(swept.status, swept.text).to.equal(200);
    expect((await reconcileToday()).mismatch_count).to.equal(0);
    expect(await testDb()('ledger_transactions').where({ external_id: stranger.line_id }).select('originator_id', 'kind')).to.deep.equal([{ originator_id: subAccount, kind: 'psp_fee' }]);
    expect(await testDb()('ledger_transactions').where({ pix_end_to_end_id: endToEndId }).select('kind')).to.deep.equal([{ kind: 'unidentified_receipt' }]);
  });
});
