import type { Knex } from 'knex';
import type { Config } from '../platform/config/config';
import type { Psp } from '../domain/ledger/chart';
import { businessDaySpan, reconcile, type Mismatch, type PspStatement } from '../domain/ledger/reconciliation';
import { addDays, businessDate } from '../domain/pricing';
import { LedgerReconciliationsRepository, type NewRun } from '../db/repositories/ledger-reconciliations';
import { bookFundingLines } from '../db/repositories/ledger-funding-books';
import { ledgerReconciliationMismatches } from '../platform/telemetry/metrics';
import { ApiPixClient } from '../providers/api-pix-client';
import { CollectionPspStatements, PayoutPspStatements, type PspStatementSource } from '../providers/psp-statements';

export type StatementSources = Partial<Record<Psp, PspStatementSource>>;

/** The PSP accounts this deployment uses: the payout PSP always, the collection PSP when collection is on. */
export function statementSources(config: Pick<Config, 'providers' | 'collection'>): StatementSources {
  const { pixUrl, timeoutMs } = config.providers;
  return {
    payout: new PayoutPspStatements(pixUrl, timeoutMs),
    ...(config.collection.callbackSecret === null ? {} : { collection: new CollectionPspStatements(new ApiPixClient({ ...config.collection, timeoutMs })) }),
  };
}

export interface ReconciliationOutcome {
  reconciliationIds: string[];
  mismatches: number;
  closed: boolean;
}

type Found = { run: NewRun; mismatches: (Mismatch & { originatorId: string | null })[] };
type Read = { psp: Psp; statement: PspStatement };

/**
 * Our books against one PSP's statement for a date, read in `trx` after the statement's top-ups,
 * sweeps and fees were booked in it, so the run judges the books those postings complete.
 */
async function examine(trx: Knex, { psp, statement }: Read, date: string, requestedBy: string): Promise<Found> {
  const repository = new LedgerReconciliationsRepository(trx);
  const { from, to } = businessDaySpan(date);
  const booked = await repository.bookedLines(psp, from, to);
  const ledgerBalance = await repository.balanceAt(psp, to);
  const mismatches = [];
  for (const mismatch of reconcile(booked, statement, ledgerBalance)) {
    const ours = booked.find((line) => line.reference === mismatch.reference && line.direction === mismatch.direction);
    const originatorId = mismatch.reference === null ? null : ours?.originatorId ?? await repository.originatorOf(psp, mismatch.reference);
    mismatches.push({ ...mismatch, originatorId });
  }
  return {
    run: { businessDate: date, psp, requestedBy, ledgerBalance, pspBalance: statement.closingBalance, pspLines: statement.lines.length, ledgerLines: booked.length },
    mismatches,
  };
}

/**
 * Reconciles every PSP account for a business date: reads each statement before writing anything
 * (a PSP that cannot be read leaves nothing stored), then, in one transaction, books the lines no
 * call of ours causes (top-ups, sweeps, fees), stores the runs, their mismatches and events, closes
 * the date when it is over and every run is clean, and lets the caller add its audit row.
 */
export function ledgerReconciler({ db, sources }: { db: Knex; sources: StatementSources }) {
  return async function reconcileDate(
    date: string, requestedBy: string, now: Date, within: (trx: Knex, outcome: ReconciliationOutcome) => Promise<void> = async () => undefined,
  ): Promise<ReconciliationOutcome> {
    const psps = Object.keys(sources) as Psp[];
    const { from, to } = businessDaySpan(date);
    const read: Read[] = [];
    for (const psp of psps) read.push({ psp, statement: await sources[psp]!.statement(from, to) });
    const found: Found[] = [];
    const outcome = await db.transaction(async (trx) => {
      const repository = new LedgerReconciliationsRepository(trx);
      const reconciliationIds = [];
      for (const { psp, statement } of read) {
        await bookFundingLines(trx, psp, statement.lines);
        found.push(await examine(trx, { psp, statement }, date, requestedBy));
      }
      for (const { run, mismatches } of found) reconciliationIds.push(await repository.record(trx, run, mismatches));
      // A date still running may yet see lines: it is reconciled, not closed.
      const over = date < businessDate(now);
      const closed = over && await repository.closeIfReconciled(trx, date, psps, requestedBy);
      const result = { reconciliationIds, mismatches: found.reduce((n, f) => n + f.mismatches.length, 0), closed };
      await within(trx, result);
      return result;
    });
    for (const { run, mismatches } of found) for (const mismatch of mismatches) ledgerReconciliationMismatches.inc({ psp: run.psp, kind: mismatch.kind });
    return outcome;
  };
}

export function createLedgerReconciliationActivities(deps: { db: Knex; sources: StatementSources }) {
  const reconcileDate = ledgerReconciler(deps);
  return {
    /**
     * The daily run: yesterday's business date, every PSP. A retry stores a second run of the
     * same date, which reads the same statements and books: the latest run is the one that counts.
     */
    async reconcileLedger(): Promise<ReconciliationOutcome> {
      const now = new Date();
      return reconcileDate(addDays(businessDate(now), -1), 'schedule', now);
    },
  };
}
