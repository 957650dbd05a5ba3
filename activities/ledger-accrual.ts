import type { Knex } from 'knex';
import { LedgerAccrualsRepository } from '../db/repositories/ledger-accruals';

export function createLedgerAccrualActivities({ db }: { db: Knex }) {
  return {
    /** The day's accrual of every open title; a retry, or a second run the same day, posts nothing twice. */
    async postDailyAccruals(): Promise<number> {
      return new LedgerAccrualsRepository(db).postDue(new Date());
    },
  };
}
