import type { Knex } from 'knex';

/**
 * What the checks before the PIX and the books left behind for the operations that reached PAID,
 * counted in the database after the measured window: the proof that a run's CPU per operation
 * includes the SEFAZ check, the escriturador's act and the ledger's postings, not a path that
 * skipped them.
 */
export interface Backing {
  operations: number;
  titles: number;
  /** Titles whose latest NF-e check before the PIX passed. */
  titles_nfe_passed: number;
  /** Titles whose acquisition the escriturador registered. */
  titles_registered: number;
  /** Posted ledger transactions of these operations, by kind. */
  ledger_posted: Record<string, number>;
  /** Pending or voided ones (none expected once PAID). */
  ledger_not_posted: number;
}

export async function backingOf(db: Knex, operationIds: string[]): Promise<Backing> {
  const count = async (sql: string) => Number((await db.raw(sql, [operationIds])).rows[0].count);
  const ledger: { kind: string; status: string; count: string }[] = (await db.raw(`
    select kind, status, count(*) from ledger_transactions where operation_id = any(?::uuid[]) group by kind, status order by kind`, [operationIds])).rows;
  return {
    operations: operationIds.length,
    titles: await count('select count(*) from titles where operation_id = any(?::uuid[])'),
    titles_nfe_passed: await count(`
      select count(*) from (select distinct on (title_id) status from nfe_checks where operation_id = any(?::uuid[]) order by title_id, checked_at desc) latest
      where status = 'passed'`),
    titles_registered: await count("select count(*) from title_registrations where operation_id = any(?::uuid[]) and status = 'registered'"),
    ledger_posted: Object.fromEntries(ledger.filter((row) => row.status === 'posted').map((row) => [row.kind, Number(row.count)])),
    ledger_not_posted: ledger.filter((row) => row.status !== 'posted').reduce((sum, row) => sum + Number(row.count), 0),
  };
}
