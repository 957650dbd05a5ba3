import type { Money } from '../money';
import { pspCash, type AccountRef, type Psp } from './chart';
import { transaction, type TransactionKind, type TransactionSpec } from './transaction';

/**
 * Lines of a PSP account that no call of ours causes: money the originator sends in to fund its
 * payouts (a top-up), money taken out to its bank account (a sweep), the PSP's own charges (a fee).
 * Reconciliation books them from the statement (docs/ledger.md).
 */
export const FUNDING_LINE_KINDS = ['top_up', 'sweep', 'fee'] as const;
export type FundingLineKind = (typeof FUNDING_LINE_KINDS)[number];

/** Which way each moves the cash: a top-up in, a sweep and a fee out. */
export const FUNDING_LINE_DIRECTION: Readonly<Record<FundingLineKind, 'in' | 'out'>> = { top_up: 'in', sweep: 'out', fee: 'out' };

const TRANSACTION_KIND: Readonly<Record<FundingLineKind, TransactionKind>> = { top_up: 'top_up', sweep: 'sweep', fee: 'psp_fee' };

/** One such line as its PSP's statement has it: its id there, its amount and when the PSP booked it. */
export interface FundingLine {
  psp: Psp;
  kind: FundingLineKind;
  lineId: string;
  amount: Money;
  at: Date;
}

/**
 * A top-up: Dr `psp_cash` / Cr `funding_transfers`; a sweep: Dr `funding_transfers` / Cr `psp_cash`;
 * a fee: Dr `psp_fee_expense` / Cr `psp_cash`. Keyed by the PSP's line id, so a second run of the
 * reconciliation books nothing twice; effective when the PSP booked it.
 */
export function fundingPosting(line: FundingLine): TransactionSpec {
  const cash = pspCash(line.psp);
  const other: AccountRef = { kind: line.kind === 'fee' ? 'psp_fee_expense' : 'funding_transfers' };
  const [debit, credit] = FUNDING_LINE_DIRECTION[line.kind] === 'in' ? [cash, other] : [other, cash];
  const kind = TRANSACTION_KIND[line.kind];
  return transaction(
    { kind, idempotencyKey: `${kind}:${line.psp}:${line.lineId}`, status: 'posted', effectiveAt: line.at, references: { externalId: line.lineId } },
    [{ account: debit, amount: line.amount }],
    [{ account: credit, amount: line.amount }],
  );
}

/** The kinds of the transactions above: their `psp_cash` line is known at the PSP by the line id (`external_id`). */
export const FUNDING_TRANSACTION_KINDS: readonly TransactionKind[] = Object.values(TRANSACTION_KIND);
