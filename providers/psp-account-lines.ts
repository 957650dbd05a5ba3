import type { CashLine } from '../domain/ledger/reconciliation';
import { FUNDING_LINE_KINDS, type FundingLineKind } from '../domain/ledger/funding-postings';
import { PixError } from './provider-errors';
import { pathOf, ProviderHttp } from './provider-http';

/**
 * A statement line: one no call of ours causes (`kind` a top-up, sweep or fee) is known by the
 * PSP's line id and carries the sub-account it names; any other keeps its `reference`.
 */
export function statementLine(line: Omit<CashLine, 'funding'>, kind: string, lineId: string, subAccount: string | null): CashLine {
  if (!FUNDING_LINE_KINDS.includes(kind as FundingLineKind)) return line;
  return { ...line, reference: lineId, funding: { kind: kind as FundingLineKind, subAccount } };
}

/** A top-up, sweep or fee a sandbox PSP booked: its line id, amount and time. */
export interface AccountLineBooked {
  id: string;
  amount: string;
  at: string;
}

/**
 * The sandbox payout PSP's control (sandbox/pix/routes.ts) that books a top-up, a sweep or a fee
 * on its account. Only the api's `/v1/sandbox/pix/statement-lines` uses it; a production PSP has no such route.
 */
export class PayoutPspSandbox {
  private readonly http: ProviderHttp;

  constructor(baseUrl: string, timeoutMs: number) {
    this.http = new ProviderHttp(baseUrl, timeoutMs);
  }

  addAccountLine(kind: FundingLineKind, amount: string, subAccount: string): Promise<AccountLineBooked> {
    return this.http.call({ method: 'POST', path: pathOf('sandbox', 'statement-lines'), body: { kind, amount, sub_account: subAccount } },
      (r) => ({ id: r.at('line_id').text(), amount: r.at('amount').money(), at: r.at('settled_at').text() }),
      (message, status) => new PixError('pix_unavailable', message, status));
  }
}
