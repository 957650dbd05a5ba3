import { Money } from '../domain/money';
import type { PspStatement } from '../domain/ledger/reconciliation';
import { statementLine } from './psp-account-lines';
import type { ApiPixClient } from './api-pix-client';
import { PixError } from './provider-errors';
import { pathOf, ProviderHttp } from './provider-http';

/** A PSP account's statement for a span: every page read, the balance at the span's end. */
export interface PspStatementSource {
  statement(from: Date, to: Date): Promise<PspStatement>;
}

type Page = PspStatement & { pages: number };

async function allPages(read: (page: number) => Promise<Page>): Promise<PspStatement> {
  const first = await read(0);
  const lines = [...first.lines];
  for (let page = 1; page < first.pages; page += 1) lines.push(...(await read(page)).lines);
  return { lines, closingBalance: first.closingBalance };
}

/**
 * The payout PSP's statement (`GET /statement?from=&to=&page=`): each payment it settled, a line
 * out known by the idempotency key we sent with it, and the account's top-ups, sweeps and fees.
 */
export class PayoutPspStatements implements PspStatementSource {
  private readonly http: ProviderHttp;

  constructor(baseUrl: string, timeoutMs: number) {
    this.http = new ProviderHttp(baseUrl, timeoutMs);
  }

  statement(from: Date, to: Date): Promise<PspStatement> {
    return allPages((page) => {
      const path = `${pathOf('statement')}?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}&page=${page}`;
      return this.http.call({ method: 'GET', path }, (r) => ({
        pages: Number(r.at('total_pages').raw()),
        closingBalance: Money.of(r.at('closing_balance').text()),
        lines: r.at('lines').list().map((line) => statementLine({
          reference: line.at('idempotency_key').textOrNull() ?? line.at('line_id').text(), endToEndId: line.at('end_to_end_id').textOrNull(),
          direction: line.at('direction').text() === 'credit' ? 'in' : 'out', amount: Money.of(line.at('amount').money()), at: new Date(line.at('settled_at').text()),
        }, line.at('kind').textOrNull() ?? 'payment', line.at('line_id').textOrNull() ?? '', line.at('sub_account').textOrNull())),
      }), (message, status) => new PixError('pix_unavailable', message, status));
    });
  }
}

/** The collection PSP's statement, through its API Pix client (one token for both). */
export class CollectionPspStatements implements PspStatementSource {
  constructor(private readonly psp: ApiPixClient) {}

  statement(from: Date, to: Date): Promise<PspStatement> {
    return allPages((page) => this.psp.statementPage(from, to, page));
  }
}
