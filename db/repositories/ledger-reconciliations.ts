import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import { eventId } from '../../domain/events';
import type { Psp } from '../../domain/ledger/chart';
import type { CashLine, Mismatch, MismatchKind, ReconciliationStatus } from '../../domain/ledger/reconciliation';
import { FUNDING_TRANSACTION_KINDS } from '../../domain/ledger/funding-postings';
import type { TransactionKind } from '../../domain/ledger/transaction';
import { recordEvent } from './events';
import { newestFirst, Page, paged } from './pagination';

/** A line of our books on a PSP account: whose books it is in. */
export interface BookedLine extends CashLine {
  originatorId: string;
}

export interface ReconciliationRun {
  id: string;
  businessDate: string;
  psp: Psp;
  status: ReconciliationStatus;
  requestedBy: string;
  ledgerBalance: Money;
  pspBalance: Money;
  pspLines: number;
  ledgerLines: number;
  mismatchCount: number;
  createdAt: Date;
  acceptedBy: string | null;
  acceptedReason: string | null;
  acceptedAt: Date | null;
  /** Whether the business date is closed (by this run or another). */
  closed: boolean;
}

export interface StoredMismatch extends Mismatch {
  id: string;
  reconciliationId: string;
  originatorId: string | null;
}

export interface NewRun {
  businessDate: string;
  psp: Psp;
  requestedBy: string;
  ledgerBalance: Money;
  pspBalance: Money;
  pspLines: number;
  ledgerLines: number;
}

const cents = (money: Money | null) => (money === null ? null : money.cents.toFixed(0));
const money = (value: number | null) => (value === null ? null : Money.fromCents(value));

const POSTED_AT = 'coalesce(t.resolved_effective_at, t.effective_at)';

/** Kinds whose psp_cash line is a payout's, known at the PSP by the disbursement's idempotency key. */
const PAYOUT_KINDS = ['payout', 'payout_difference'];

/**
 * Reconciliation's reads of every originator's books on a PSP account, and its runs, mismatches
 * and closed dates. Not tenant-scoped: a PSP account is the platform's, each originator's
 * `psp_cash` a share of it, so a run reads them all (staff only).
 */
export class LedgerReconciliationsRepository {
  /** When a posted line moved the cash: its posting (a pending payout posts at the settlement), else its effect. */
  private readonly postedAt: Knex.Raw;

  constructor(private readonly db: Knex) {
    this.postedAt = db.raw(POSTED_AT);
  }

  private cashEntries(psp: Psp): Knex.QueryBuilder {
    return this.db('ledger_entries as e').join('ledger_accounts as a', 'a.id', 'e.account_id').join('ledger_transactions as t', 't.id', 'e.transaction_id')
      .where({ 'a.kind': 'psp_cash', 'a.psp': psp, 't.status': 'posted' });
  }

  /**
   * Every originator's posted lines on `psp`'s account in [from, to). A payout and the difference
   * its settlement booked are one line, as the PSP settled it.
   */
  async bookedLines(psp: Psp, from: Date, to: Date): Promise<BookedLine[]> {
    const rows: Record<string, unknown>[] = await this.cashEntries(psp)
      // A payout's key is `payout:<disbursement>` (its difference's `payout_difference:<disbursement>`): joined by the id, so by its primary key.
      .leftJoin('disbursements as d', 'd.id', this.db.raw(`case when t.kind in ('payout', 'payout_difference') then split_part(t.idempotency_key, ':', 2)::uuid end`))
      .where(this.postedAt, '>=', from).where(this.postedAt, '<', to)
      .orderBy('t.id')
      .select('t.originator_id', 't.kind', 't.pix_end_to_end_id', 't.external_id', 'd.idempotency_key as payout_key', 'e.direction', 'e.amount_cents', this.db.raw(`${POSTED_AT} as at`));
    const lines = new Map<string, BookedLine & { net: Money }>();
    const out: BookedLine[] = [];
    for (const row of rows) {
      const amount = Money.fromCents(row.amount_cents as number);
      const signed = row.direction === 'debit' ? amount : Money.ZERO.minus(amount);
      const at = new Date(row.at as string);
      if (PAYOUT_KINDS.includes(row.kind as string) && row.payout_key) {
        const key = row.payout_key as string;
        const line = lines.get(key) ?? { reference: key, endToEndId: null, direction: 'out' as const, amount: Money.ZERO, at, originatorId: row.originator_id as string, net: Money.ZERO };
        line.net = line.net.plus(signed);
        lines.set(key, line);
        continue;
      }
      // A top-up, sweep or fee is known at the PSP by its line id, which its transaction keeps as `external_id`.
      const known = FUNDING_TRANSACTION_KINDS.includes(row.kind as TransactionKind) ? row.external_id : row.pix_end_to_end_id;
      const reference = (known as string | null) ?? `${row.kind as string}:unreferenced`;
      out.push({ reference, endToEndId: row.pix_end_to_end_id as string | null, direction: row.direction === 'debit' ? 'in' : 'out', amount, at, originatorId: row.originator_id as string });
    }
    for (const { net, ...line } of lines.values()) {
      if (!net.isZero()) out.push({ ...line, direction: net.isNegative() ? 'out' : 'in', amount: net.isNegative() ? Money.ZERO.minus(net) : net });
    }
    return out;
  }

  /** Σ every originator's `psp_cash` on `psp`, debit less credit, as posted before `at`. */
  async balanceAt(psp: Psp, at: Date): Promise<Money> {
    const [{ net }] = await this.cashEntries(psp).where(this.postedAt, '<', at)
      .select(this.db.raw("coalesce(sum(case e.direction when 'debit' then e.amount_cents else -e.amount_cents end), 0) as net"));
    return Money.fromCents(net as number);
  }

  /**
   * Whose a PSP line is when our books lack it: a payout's by its disbursement, a PIX received
   * by the title payment or receipt that applied it. Null: nothing of ours knows it.
   */
  async originatorOf(psp: Psp, reference: string): Promise<string | null> {
    const row = psp === 'payout'
      ? await this.db('disbursements').where({ idempotency_key: reference }).first('originator_id')
      : await this.db('ledger_transactions').where({ pix_end_to_end_id: reference }).first('originator_id')
        ?? await this.db('title_payments as p').join('titles as ti', 'ti.id', 'p.title_id').where('p.external_id', reference).first('ti.originator_id');
    return (row?.originator_id as string | undefined) ?? null;
  }

  /**
   * Stores a run with its mismatches, each line mismatch an event to the originator concerned, in
   * `trx` (the caller's, with its audit row).
   */
  async record(trx: Knex, run: NewRun, mismatches: (Mismatch & { originatorId: string | null })[]): Promise<string> {
    const id = uuidv7();
    await trx('ledger_reconciliations').insert({
      id, business_date: run.businessDate, psp: run.psp, status: mismatches.length === 0 ? 'clean' : 'mismatched', requested_by: run.requestedBy,
      ledger_balance_cents: cents(run.ledgerBalance), psp_balance_cents: cents(run.pspBalance), psp_lines: run.pspLines, ledger_lines: run.ledgerLines,
      mismatch_count: mismatches.length,
    });
    for (const mismatch of mismatches) {
      const mismatchId = uuidv7();
      await trx('ledger_reconciliation_mismatches').insert({
        id: mismatchId, reconciliation_id: id, originator_id: mismatch.originatorId, kind: mismatch.kind, reference: mismatch.reference,
        end_to_end_id: mismatch.endToEndId, direction: mismatch.direction, ledger_amount_cents: cents(mismatch.ledgerAmount),
        psp_amount_cents: cents(mismatch.pspAmount), occurred_at: mismatch.at,
      });
      if (mismatch.originatorId) {
        await recordEvent(trx, {
          eventId: eventId(mismatchId, 'ledger.reconciliation_mismatch'), originatorId: mismatch.originatorId, eventType: 'ledger.reconciliation_mismatch', occurredAt: new Date(),
          data: {
            mismatch_id: mismatchId, reconciliation_id: id, business_date: run.businessDate, psp: run.psp, kind: mismatch.kind, reference: mismatch.reference,
            end_to_end_id: mismatch.endToEndId, direction: mismatch.direction, ledger_amount: mismatch.ledgerAmount?.toString() ?? null,
            psp_amount: mismatch.pspAmount?.toString() ?? null, occurred_at: mismatch.at?.toISOString() ?? null,
          },
        });
      }
    }
    return id;
  }

  /**
   * Closes `date` when every PSP in `psps` has, as its latest run for the date, a clean or
   * accepted one. True when the date is closed (now or before).
   */
  async closeIfReconciled(trx: Knex, date: string, psps: readonly Psp[], closedBy: string): Promise<boolean> {
    const latest: { psp: Psp; status: ReconciliationStatus }[] = await trx('ledger_reconciliations').where({ business_date: date })
      .distinctOn('psp').orderBy([{ column: 'psp' }, { column: 'id', order: 'desc' }]).select('psp', 'status');
    const settled = psps.every((psp) => latest.some((run) => run.psp === psp && run.status !== 'mismatched'));
    if (settled) await trx('ledger_closed_dates').insert({ business_date: date, closed_by: closedBy }).onConflict('business_date').ignore();
    return (await trx('ledger_closed_dates').where({ business_date: date }).first()) !== undefined;
  }

  /** Staff accept a run's mismatches as explained; true when this call did. */
  async accept(trx: Knex, id: string, by: string, reason: string): Promise<boolean> {
    return (await trx('ledger_reconciliations').where({ id, status: 'mismatched' })
      .update({ status: 'accepted', accepted_by: by, accepted_reason: reason, accepted_at: trx.fn.now() })) > 0;
  }

  /** A run's row and whether its date is closed. */
  private withClosed(query: Knex.QueryBuilder): Knex.QueryBuilder {
    return query.leftJoin('ledger_closed_dates as c', 'c.business_date', 'r.business_date').select('r.*', this.db.raw('c.business_date is not null as closed'));
  }

  async list(filter: { businessDate?: string; status?: ReconciliationStatus }, limit: number, offset: number): Promise<Page<ReconciliationRun>> {
    const filtered = () => {
      const query = this.db('ledger_reconciliations as r');
      if (filter.businessDate) query.where('r.business_date', filter.businessDate);
      if (filter.status) query.where('r.status', filter.status);
      return query;
    };
    const page = await paged<Record<string, unknown>>(filtered, (query) => newestFirst('r')(this.withClosed(query)), limit, offset);
    return { items: page.items.map(runOf), total: page.total };
  }

  async find(id: string): Promise<ReconciliationRun | null> {
    const row = await this.withClosed(this.db('ledger_reconciliations as r')).where('r.id', id).first();
    return row ? runOf(row) : null;
  }

  async mismatchesOf(id: string): Promise<StoredMismatch[]> {
    const rows: Record<string, unknown>[] = await this.db('ledger_reconciliation_mismatches').where({ reconciliation_id: id }).orderBy('id');
    return rows.map((row) => ({
      id: row.id as string, reconciliationId: row.reconciliation_id as string, originatorId: row.originator_id as string | null,
      kind: row.kind as MismatchKind, reference: row.reference as string | null, endToEndId: row.end_to_end_id as string | null,
      direction: row.direction as 'in' | 'out' | null, ledgerAmount: money(row.ledger_amount_cents as number | null), pspAmount: money(row.psp_amount_cents as number | null),
      at: row.occurred_at ? new Date(row.occurred_at as string) : null,
    }));
  }
}

function runOf(row: Record<string, unknown>): ReconciliationRun {
  return {
    id: row.id as string, businessDate: row.business_date as string, psp: row.psp as Psp, status: row.status as ReconciliationStatus,
    requestedBy: row.requested_by as string, ledgerBalance: Money.fromCents(row.ledger_balance_cents as number), pspBalance: Money.fromCents(row.psp_balance_cents as number),
    pspLines: row.psp_lines as number, ledgerLines: row.ledger_lines as number, mismatchCount: row.mismatch_count as number, createdAt: new Date(row.created_at as string),
    acceptedBy: row.accepted_by as string | null, acceptedReason: row.accepted_reason as string | null, acceptedAt: row.accepted_at ? new Date(row.accepted_at as string) : null,
    closed: Boolean(row.closed),
  };
}

