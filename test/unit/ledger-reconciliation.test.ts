import { expect } from 'chai';
import { Money } from '../../domain/money';
import { businessDaySpan, CashLine, reconcile } from '../../domain/ledger/reconciliation';

const at = new Date('2026-11-27T15:00:00Z');
const line = (reference: string, direction: 'in' | 'out', amount: string, minutes = 0): CashLine => ({
  reference, direction, amount: Money.of(amount), at: new Date(at.getTime() + minutes * 60_000), endToEndId: null,
});
const kinds = (found: ReturnType<typeof reconcile>) => found.map((m) => [m.kind, m.reference, m.ledgerAmount?.toString() ?? null, m.pspAmount?.toString() ?? null]);

describe('reconciling a PSP account\'s day (domain/ledger/reconciliation.ts)', () => {
  it('finds nothing when every line pairs by direction, reference and amount and the balances agree', () => {
    const lines = [line('E1', 'in', '100.00'), line('E1', 'out', '10.00', 5), line('operation-x-pix-1', 'out', '50.00')];
    expect(reconcile([...lines].reverse(), { lines, closingBalance: Money.of('40.00') }, Money.of('40.00'))).to.deep.equal([]);
  });

  it('names a PSP line the ledger lacks, a ledger line the PSP lacks, an amount that differs and a closing balance that differs', () => {
    const ledger = [line('E1', 'in', '100.00'), line('E2', 'in', '20.00'), line('K1', 'out', '50.00')];
    const psp = [line('E1', 'in', '100.00'), line('E3', 'in', '30.00'), line('K1', 'out', '49.99')];
    expect(kinds(reconcile(ledger, { lines: psp, closingBalance: Money.of('80.01') }, Money.of('70.00')))).to.deep.equal([
      ['missing_at_psp', 'E2', '20.00', null],
      ['amount_differs', 'K1', '50.00', '49.99'],
      ['missing_in_ledger', 'E3', null, '30.00'],
      ['closing_balance_differs', null, '70.00', '80.01'],
    ]);
  });

  it('pairs several lines under one reference in time order: a second refund of a PIX the ledger lacks is one mismatch', () => {
    const ledger = [line('E1', 'out', '10.00', 1)];
    const psp = [line('E1', 'out', '5.00', 2), line('E1', 'out', '10.00', 1)];
    expect(kinds(reconcile(ledger, { lines: psp, closingBalance: Money.ZERO }, Money.ZERO))).to.deep.equal([['missing_in_ledger', 'E1', null, '5.00']]);
  });

  it('spans a São Paulo business date: 03:00 UTC to 03:00 UTC', () => {
    const { from, to } = businessDaySpan('2026-11-27');
    expect([from.toISOString(), to.toISOString()]).to.deep.equal(['2026-11-27T03:00:00.000Z', '2026-11-28T03:00:00.000Z']);
  });
});
