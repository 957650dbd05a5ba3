import type { Knex } from 'knex';
import { validate as isUuid } from 'uuid';
import type { Psp } from '../../domain/ledger/chart';
import type { CashLine } from '../../domain/ledger/reconciliation';
import { fundingPosting } from '../../domain/ledger/funding-postings';
import { LedgerPostingsRepository } from './ledger-postings';

/**
 * Books a PSP statement's top-ups, sweeps and fees in the books of the originator whose
 * sub-account each names, in `trx` (the reconciliation run's). A line that names no originator we
 * know stays unbooked, so the run reports it as missing in the ledger. How many this call booked:
 * a line booked by an earlier run is found by its key and left alone.
 */
export async function bookFundingLines(trx: Knex, psp: Psp, lines: readonly CashLine[]): Promise<number> {
  const named = lines.filter((line) => line.funding?.subAccount && isUuid(line.funding.subAccount));
  if (named.length === 0) return 0;
  const owners = [...new Set(named.map((line) => line.funding!.subAccount!))];
  const known = new Set((await trx('originators').whereIn('id', owners).select('id')).map((row: { id: string }) => row.id));
  let booked = 0;
  for (const line of named) {
    const { kind, subAccount } = line.funding!;
    if (!known.has(subAccount!)) continue;
    const posting = fundingPosting({ psp, kind, lineId: line.reference, amount: line.amount, at: line.at });
    if (await new LedgerPostingsRepository(trx, subAccount!).post(posting)) booked += 1;
  }
  return booked;
}
