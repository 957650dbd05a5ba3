import { expect } from 'chai';
import { businessDate, startOfBusinessDay } from '../../domain/pricing';
import { overdueAt } from '../../domain/title-rules';

describe('the overdue moment (domain/title-rules.ts)', () => {
  it('is the start of the day after the due date when there are no grace days: midnight in São Paulo, 03:00 UTC', () => {
    expect(overdueAt('2026-12-10', 0)).to.equal('2026-12-11T03:00:00.000Z');
  });

  it('gives the payer every grace day in full', () => {
    expect(overdueAt('2026-12-10', 3)).to.equal('2026-12-14T03:00:00.000Z');
  });

  it('falls on the first instant of a new São Paulo day, never while the grace period\'s last day is still running there', () => {
    const deadline = Date.parse(overdueAt('2026-12-10', 2));
    expect(businessDate(new Date(deadline - 1))).to.equal('2026-12-12');
    expect(businessDate(new Date(deadline))).to.equal('2026-12-13');
  });

  it('crosses a month and a year end', () => {
    expect(overdueAt('2026-12-30', 1)).to.equal('2027-01-01T03:00:00.000Z');
    expect(overdueAt('2028-02-28', 0)).to.equal('2028-02-29T03:00:00.000Z');
  });
});

describe('the start of a business day (domain/pricing/business-date.ts)', () => {
  it('follows the zone database, not a fixed offset: São Paulo\'s summer time of 2018 began days at 02:00 UTC', () => {
    expect(startOfBusinessDay('2018-12-10').toISOString()).to.equal('2018-12-10T02:00:00.000Z');
    expect(startOfBusinessDay('2026-12-10').toISOString()).to.equal('2026-12-10T03:00:00.000Z');
  });

  it('begins at 01:00 local on a day whose midnight the clocks skipped (summer time began at 00:00 on 2018-11-04)', () => {
    expect(startOfBusinessDay('2018-11-04').toISOString()).to.equal('2018-11-04T03:00:00.000Z');
  });

  it('begins once the repeated hour is over on the day summer time ended (clocks went back at 00:00 on 2019-02-17)', () => {
    const start = startOfBusinessDay('2019-02-17');
    expect(start.toISOString()).to.equal('2019-02-17T03:00:00.000Z');
    expect(businessDate(new Date(start.getTime() - 1))).to.equal('2019-02-16');
  });

  it('counts the seconds of São Paulo\'s local mean time (GMT-03:06:28) before 1914, so an old due date has an overdue moment', () => {
    expect(startOfBusinessDay('1900-01-05').toISOString()).to.equal('1900-01-05T03:06:28.000Z');
    expect(overdueAt('1900-01-01', 3)).to.equal('1900-01-05T03:06:28.000Z');
  });
});
