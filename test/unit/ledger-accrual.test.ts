import { expect } from 'chai';
import { Money } from '../../domain/money';
import { accrualDue, accrualSchedule, AccrualTerms, daysBetween, incomeToDate } from '../../domain/ledger/accrual';

/*
 * Schedules worked out apart from this code, from L · ((R / L)^(t / n) − 1) at 50 significant
 * digits, each day's target rounded half-up to cents, each posting the target minus the
 * previous one, the last day D exactly.
 */
const THIRTY_DAYS = ['9.85', '9.87', '9.87', '9.88', '9.90', '9.90', '9.91', '9.93', '9.93', '9.95', '9.95', '9.96', '9.98', '9.98', '10.00',
  '10.00', '10.02', '10.02', '10.04', '10.04', '10.06', '10.06', '10.08', '10.09', '10.09', '10.11', '10.12', '10.12', '10.14', '10.15'];
const FORTY_SEVEN_DAYS = ['5.64', '5.64', '5.65', '5.66', '5.65', '5.66', '5.67', '5.66', '5.68', '5.67', '5.68', '5.69', '5.69', '5.69', '5.69', '5.70',
  '5.71', '5.71', '5.71', '5.72', '5.72', '5.72', '5.73', '5.73', '5.74', '5.74', '5.75', '5.74', '5.76', '5.75', '5.77', '5.76', '5.77', '5.77',
  '5.78', '5.78', '5.79', '5.79', '5.79', '5.80', '5.80', '5.81', '5.81', '5.81', '5.82', '5.82', '5.83'];

const terms = (requested: string, price: string, days: number, method: AccrualTerms['method'] = 'effective_interest'): AccrualTerms =>
  ({ requested: Money.of(requested), price: Money.of(price), days, method });

describe('accrual by effective interest', () => {
  it('earns a 30-day title\'s R$ 300.00 discount on the hand-computed schedule', () => {
    const thirty = terms('10000.00', '9700.00', 30);
    expect(accrualSchedule(thirty).map(String)).to.deep.equal(THIRTY_DAYS);
    expect(incomeToDate(thirty, 15).toString()).to.equal('148.86');
    expect(incomeToDate(thirty, 29).toString()).to.equal('289.85');
  });

  it('earns a 47-day title\'s R$ 269.45 discount on the hand-computed schedule, the last day taking the remainder', () => {
    const fortySeven = terms('8250.00', '7980.55', 47);
    const schedule = accrualSchedule(fortySeven);
    expect(schedule.map(String)).to.deep.equal(FORTY_SEVEN_DAYS);
    expect(Money.sum(schedule).toString()).to.equal('269.45');
    expect(incomeToDate(fortySeven, 46).toString()).to.equal('263.62');
  });

  it('catches up a missed day: what is due is the target less what is already posted', () => {
    const thirty = terms('10000.00', '9700.00', 30);
    expect(accrualDue(thirty, 2, Money.ZERO).toString()).to.equal('19.72');
    expect(accrualDue(thirty, 2, Money.of('9.85')).toString()).to.equal('9.87');
    expect(accrualDue(thirty, 40, Money.of('289.85')).toString()).to.equal('10.15');
    expect(accrualDue(thirty, 0, Money.ZERO).toString()).to.equal('0.00');
  });

  it('spreads the discount evenly under the straight-line policy', () => {
    const schedule = accrualSchedule(terms('1000.00', '990.00', 3, 'straight_line'));
    expect(schedule.map(String)).to.deep.equal(['3.33', '3.34', '3.33']);
  });

  it('counts whole calendar days between business dates', () => {
    expect(daysBetween('2026-11-28', '2026-12-28')).to.equal(30);
    expect(daysBetween('2026-02-27', '2026-03-01')).to.equal(2);
  });
});
