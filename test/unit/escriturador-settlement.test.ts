import { expect } from 'chai';
import { appliedOutcome, settlementIsOurs, settlementPayment, type SettlementEvent } from '../../domain/escriturador/settlement';

const event = (amount: string): SettlementEvent => ({
  type: 'duplicata.settled', eventId: 'e-1', duplicataId: 'd-1', nfeKey: 'k', installment: '001', holderDocument: '11222333000181',
  amount, paidAmount: amount, settled: false, paidAt: '2026-11-28T12:00:00.000Z', origin: 'payer',
});

describe('what an escriturador settlement makes on our title', () => {
  it('is ours only while our act is registered, or settled under it', () => {
    expect((['requested', 'registered', 'refused', 'cancelled', 'settled', null] as const).map(settlementIsOurs)).to.deep.equal([false, true, false, false, true, false]);
  });

  it('pays the title through the REGISTRAR channel under an external_id of the event, up to its balance', () => {
    expect(settlementPayment(event('400.00'), { status: 'WAITING_PAYMENT', outstandingBalance: '1000.00' })).to.deep.equal({
      externalId: 'registrar:e-1', paidAmountBrl: '400.00', paidAt: '2026-11-28T12:00:00.000Z', channel: 'REGISTRAR', recordedBy: 'registrar:webhook',
    });
    expect(settlementPayment(event('400.00'), { status: 'PARTIALLY_PAID', outstandingBalance: '150.50' })?.paidAmountBrl).to.equal('150.50');
  });

  it('pays nothing on a title closed (paid, back to the assignor, cancelled) or with nothing left', () => {
    for (const status of ['PAID', 'OVERDUE', 'CANCELLED'] as const) expect(settlementPayment(event('1.00'), { status, outstandingBalance: '10.00' })).to.equal(null);
    expect(settlementPayment(event('1.00'), { status: 'PARTIALLY_PAID', outstandingBalance: '0.00' })).to.equal(null);
  });

  it('names a payment of all the event\'s amount applied, one of less applied in part', () => {
    expect([appliedOutcome(event('400.00'), '400.00'), appliedOutcome(event('400.00'), '150.50')]).to.deep.equal(['applied', 'applied_in_part']);
  });
});
