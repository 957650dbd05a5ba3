import { expect } from 'chai';
import { LedgerAccrualsRepository } from '../../db/repositories/ledger-accruals';
import { Money } from '../../domain/money';
import { ledgerAccrualScheduleId } from '../../domain/workflow-ids';
import { testConfig, testDb } from '../support/stack';
import { createDirect, directBody, operationsStack } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { temporal } from '../support/temporal';
import { postedBalances } from '../support/ledger';

const DAY_MS = 86_400_000;

/**
 * OPERATIONS_POLICY buys the default receivable, R$ 10,000.00 due in 30 days, for R$ 9,750.00.
 * Its effective-interest schedule, worked out apart from this code from 9,750 · ((10,000 / 9,750)^(t/30) − 1)
 * rounded half-up to cents: 8.23 by day 1, 16.47 by day 2, 82.63 by day 10, 241.56 by day 29, 250.00 on day 30.
 * Straight-line, 250 · t / 30: 8.33 by day 1, 16.67 by day 2, 83.33 by day 10, 241.67 by day 29, 250.00 on day 30.
 */
describe('the daily accrual of discount income', () => {
  const stack = operationsStack();
  let titleId: string;
  let paidOutAt: Date;
  const accrue = (day: number) => new LedgerAccrualsRepository(testDb()).postDue(new Date(paidOutAt.getTime() + day * DAY_MS));
  /** What the originator earned in all, and what `title` has not earned yet. */
  const earned = async (title = titleId) => {
    const books = await postedBalances(stack.originatorId);
    return { income: books.discount_income ?? '0.00', unearned: books[`unearned_discount:${title}`] };
  };

  /** A title of a new operation, PAID, and when its price was paid out. */
  async function paidTitle(): Promise<{ titleId: string; paidOutAt: Date }> {
    const created = await createDirect(stack.client, stack.token, directBody());
    expect(created.status, created.text).to.equal(201);
    await untilPaid(stack.client, stack.token, created.body.id);
    const payout = await testDb()('ledger_transactions').where({ operation_id: created.body.id, kind: 'payout', status: 'posted' }).first('resolved_effective_at');
    return { titleId: created.body.titles[0].id, paidOutAt: payout.resolved_effective_at };
  }

  before(async () => {
    ({ titleId, paidOutAt } = await paidTitle());
  });

  it('earns the title\'s discount on the hand-computed 30-day schedule, catching up missed days, never twice a day', async () => {
    expect(await earned()).to.deep.equal({ income: '0.00', unearned: '250.00' });
    const schedule: [number, string, string][] = [[1, '8.23', '241.77'], [2, '16.47', '233.53'], [10, '82.63', '167.37'], [29, '241.56', '8.44'], [30, '250.00', '0.00']];
    for (const [day, income, unearned] of schedule) {
      await accrue(day);
      expect(await earned(), `day ${day}`).to.deep.equal({ income, unearned });
      // Every open title of the database was accrued for that day already (other files' too, in a serial run).
      expect(await accrue(day), `day ${day} again`).to.equal(0);
    }
    await accrue(31);
    expect(await earned()).to.deep.equal({ income: '250.00', unearned: '0.00' });
    const days = await testDb()('ledger_transactions').where({ title_id: titleId, kind: 'accrual' }).orderBy('id').pluck('idempotency_key');
    expect(days).to.have.length(5);
  });

  it('recognises at the close what the schedule had not yet earned', async () => {
    const { titleId: other, paidOutAt: otherPaidOutAt } = await paidTitle();
    await new LedgerAccrualsRepository(testDb()).postDue(new Date(otherPaidOutAt.getTime() + DAY_MS));
    const paid = await stack.client.post(`/v1/backoffice/titles/${other}/payer-payments`, { paid_amount_brl: '10000.00', external_id: `boleto-${other}` }, { token: stack.backoffice });
    expect(paid.status, paid.text).to.equal(201);
    await eventually(async () => expect((await postedBalances(stack.originatorId))[`unearned_discount:${other}`]).to.equal('0.00'));
    const closing = await testDb()('ledger_transactions').where({ title_id: other, kind: 'payer_payment' }).first('id');
    const recognised = await testDb()('ledger_entries').where({ transaction_id: closing.id, direction: 'credit' }).whereIn('account_id', testDb()('ledger_accounts').where({ kind: 'discount_income' }).select('id')).first('amount_cents');
    expect(recognised.amount_cents).to.equal(25_000 - 823);
  });

  it('runs every day by a Temporal Schedule the worker creates', async () => {
    const described = await (await temporal()).schedule.getHandle(ledgerAccrualScheduleId(testConfig().temporal.taskQueue)).describe();
    expect(described.spec.intervals?.[0]).to.include({ every: DAY_MS });
    expect(described.action).to.include({ workflowType: 'ledgerAccrual' });
  });

  it('earns straight-line when the originator chose it, on the hand-computed schedule', async () => {
    await testDb()('originators').where({ id: stack.originatorId }).update({ ledger_accrual_method: 'straight_line' });
    const { titleId: straight, paidOutAt: start } = await paidTitle();
    const { income: before } = await earned(straight);
    const schedule: [number, string, string][] = [[1, '8.33', '241.67'], [2, '16.67', '233.33'], [10, '83.33', '166.67'], [29, '241.67', '8.33'], [30, '250.00', '0.00']];
    for (const [day, income, unearned] of schedule) {
      await new LedgerAccrualsRepository(testDb()).postDue(new Date(start.getTime() + day * DAY_MS));
      const now = await earned(straight);
      expect({ income: Money.of(now.income).minus(Money.of(before)).toString(), unearned: now.unearned }, `day ${day}`).to.deep.equal({ income, unearned });
    }
  });
});
