import type { Knex } from 'knex';
import { Money } from '../../domain/money';
import { AccrualMethod, accrualDue, daysBetween } from '../../domain/ledger/accrual';
import { accrual } from '../../domain/ledger/collection-postings';
import { businessDate } from '../../domain/pricing';
import { LedgerPostingsRepository } from './ledger-postings';

/** A title still earning its discount: bought, paid out, open. */
interface Earning {
  titleId: string;
  originatorId: string;
  operationId: string;
  assignorId: string;
  requested: Money;
  discount: Money;
  dueDate: string;
  floatingDays: number;
  /** When its operation's price was paid out (the PIX settled; the acquisition when netting paid it all). */
  paidOutAt: Date;
  accrued: Money;
  /** The originator's policy: effective interest unless it chose straight-line. */
  method: AccrualMethod;
}

const OPEN = ['WAITING_PAYMENT', 'PARTIALLY_PAID'];

/**
 * The daily accrual (docs/ledger.md, "Accrual"): each open title's discount earned to date, by its
 * originator's method, posted as the target less what is already posted, under a key of the title and the business date.
 * Each title in its own database transaction, its row locked, so a payment that closes it (and
 * recognises the rest) is not raced.
 */
export class LedgerAccrualsRepository {
  constructor(private readonly db: Knex) {}

  private earning(db: Knex): Knex.QueryBuilder {
    const paidOut = db('ledger_transactions as p').whereRaw('p.operation_id = ti.operation_id').where('p.status', 'posted').whereIn('p.kind', ['payout', 'acquisition'])
      .max({ at: db.raw('coalesce(p.resolved_effective_at, p.effective_at)') });
    const accrued = db('ledger_entries as e').join('ledger_transactions as t', 't.id', 'e.transaction_id')
      .whereRaw('t.title_id = ti.id').where({ 't.kind': 'accrual', 'e.direction': 'credit' }).sum({ cents: 'e.amount_cents' });
    return db('titles as ti').join('operations as o', 'o.id', 'ti.operation_id').join('originators as og', 'og.id', 'ti.originator_id')
      .whereIn('ti.status', OPEN).where('ti.present_value_discount', '>', 0)
      .whereExists(db('ledger_transactions as a').whereRaw('a.title_id = ti.id').where({ 'a.kind': 'acquisition', 'a.status': 'posted' }))
      .whereIn('o.lifecycle_status', ['PAID', 'SETTLED'])
      .select('ti.id', 'ti.originator_id', 'ti.operation_id', 'ti.assignor_id', 'ti.requested_net_future_value', 'ti.present_value_discount', 'ti.due_date', 'o.floating_days', 'og.ledger_accrual_method',
        { paid_out_at: paidOut, accrued_cents: accrued });
  }

  private async post(trx: Knex, row: Record<string, unknown>, now: Date): Promise<boolean> {
    const title: Earning = {
      titleId: row.id as string, originatorId: row.originator_id as string, operationId: row.operation_id as string, assignorId: row.assignor_id as string,
      requested: Money.of(row.requested_net_future_value as string), discount: Money.of(row.present_value_discount as string),
      dueDate: row.due_date as string, floatingDays: Number(row.floating_days), paidOutAt: row.paid_out_at as Date,
      accrued: Money.fromCents((row.accrued_cents ?? 0) as string | number), method: row.ledger_accrual_method as AccrualMethod,
    };
    const start = businessDate(title.paidOutAt);
    const today = businessDate(now);
    const terms = { price: title.requested.minus(title.discount), requested: title.requested, days: daysBetween(start, title.dueDate) + title.floatingDays, method: title.method };
    const due = accrualDue(terms, daysBetween(start, today), title.accrued);
    if (!due.gt(Money.ZERO)) return false;
    const spec = accrual({ titleId: title.titleId, operationId: title.operationId, assignorId: title.assignorId }, today, due, now);
    return spec !== null && new LedgerPostingsRepository(trx, title.originatorId).post(spec);
  }

  /** Posts what each open title earned up to `now`'s business date; how many titles it posted for. */
  async postDue(now: Date): Promise<number> {
    let posted = 0;
    for (const { id } of await this.earning(this.db).select('ti.id')) {
      const done = await this.db.transaction(async (trx) => {
        if (!await trx('titles').where({ id }).whereIn('status', OPEN).forUpdate().first('id')) return false;
        const row = await this.earning(trx).where('ti.id', id).first();
        return row ? this.post(trx, row, now) : false;
      });
      if (done) posted += 1;
    }
    return posted;
  }
}
