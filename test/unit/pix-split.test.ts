import { expect } from 'chai';
import { splitReceivedPix } from '../../domain/collection/pix-split';
import { lateComponents } from '../../domain/collection/late-charges';
import { Money } from '../../domain/money';

describe('booking a PIX received against a title\'s charge', () => {
  const open = { status: 'WAITING_PAYMENT' as const, outstandingBalance: '1000.00' };
  const pix = (amount: string, fine = '0.00', interest = '0.00') => ({ amount, fine, interest });

  it('applies a payment up to the balance to principal', () => {
    expect(splitReceivedPix(pix('400.00'), open)).to.deep.equal({ appliedBrl: '400.00', lateIncomeBrl: '0.00', refundedBrl: '0.00' });
  });

  it('refunds what exceeds the balance', () => {
    expect(splitReceivedPix(pix('1000.01'), open)).to.deep.equal({ appliedBrl: '1000.00', lateIncomeBrl: '0.00', refundedBrl: '0.01' });
  });

  it('keeps fine and interest as late income, never principal', () => {
    expect(splitReceivedPix(pix('1025.33', '20.00', '5.33'), open)).to.deep.equal({ appliedBrl: '1000.00', lateIncomeBrl: '25.33', refundedBrl: '0.00' });
  });

  it('refunds the whole PIX when the title has closed', () => {
    for (const status of ['PAID', 'OVERDUE', 'CANCELLED'] as const) {
      expect(splitReceivedPix(pix('50.00', '1.00'), { status, outstandingBalance: '0.00' })).to.deep.equal({ appliedBrl: '0.00', lateIncomeBrl: '0.00', refundedBrl: '50.00' });
    }
  });
});

describe('late charges of a cobv', () => {
  const terms = { original: Money.of('2000.00'), dueDate: '2026-03-10', finePct: '2.00', interestMonthlyPct: '1.00' };

  it('owes nothing through the whole due date (São Paulo time)', () => {
    expect(lateComponents({ ...terms, paidOn: new Date('2026-03-11T02:59:59Z') })).to.deep.include({ daysLate: 0 });
  });

  it('owes the fine once and interest per calendar day after it, each to the cent', () => {
    const late = lateComponents({ ...terms, paidOn: new Date('2026-03-25T15:00:00Z') });
    expect(late.daysLate).to.equal(15);
    expect(late.fine.toString()).to.equal('40.00');
    expect(late.interest.toString()).to.equal('10.00');
  });
});
