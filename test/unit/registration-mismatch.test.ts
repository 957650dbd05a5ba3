import { expect } from 'chai';
import type { Act, Duplicata } from '../../domain/escriturador/port';
import { registrationMismatch } from '../../domain/escriturador/reconciliation';

const US = '11222333000181';
const act = (overrides: Partial<Act> = {}): Act => ({
  actId: 'act-1', duplicataId: 'dup-1', kind: 'transfer', negotiationType: 'aquisicao_com_regresso', fromDocument: '99888777000166', toDocument: US,
  status: 'registered', registeredAt: '2026-11-28T10:00:00Z', cancelledAt: null, ...overrides,
});
const duplicata = (overrides: Partial<Duplicata> = {}): Duplicata => ({
  duplicataId: 'dup-1', nfeKey: '3'.repeat(44), installment: '001', dueDate: '2026-12-28', value: '1000.00', issuerDocument: '99888777000166',
  holderDocument: US, liens: [], payerAcceptance: 'pending', paidAmount: '0.00', settled: false, ...overrides,
});

/** The reconciliation's one rule: how our record of an act and the escriturador's differ, if they do. */
describe('a registration compared with the escriturador\'s record', () => {
  const compare = (status: 'registered' | 'cancelled' | 'settled', there: { duplicata: Duplicata; acts: Act[] }) => registrationMismatch({ status, actId: 'act-1' }, there);

  it('finds nothing when both agree, whatever the state', () => {
    expect(compare('registered', { duplicata: duplicata(), acts: [act()] })).to.equal(null);
    expect(compare('cancelled', { duplicata: duplicata({ holderDocument: '99888777000166' }), acts: [act({ status: 'cancelled' })] })).to.equal(null);
    expect(compare('settled', { duplicata: duplicata({ paidAmount: '1000.00', settled: true }), acts: [act()] })).to.equal(null);
  });

  it('names each difference', () => {
    expect(compare('registered', { duplicata: duplicata(), acts: [] })).to.equal('act_missing_there');
    // Our act is found by its id, not by its place among the duplicata's acts.
    expect(compare('registered', { duplicata: duplicata(), acts: [act({ actId: 'act-other' })] })).to.equal('act_missing_there');
    expect(compare('registered', { duplicata: duplicata(), acts: [act({ status: 'cancelled' })] })).to.equal('act_cancelled_there');
    expect(compare('registered', { duplicata: duplicata({ holderDocument: '44555666000177' }), acts: [act()] })).to.equal('holder_changed_there');
    expect(compare('registered', { duplicata: duplicata({ paidAmount: '1000.00', settled: true }), acts: [act()] })).to.equal('settled_there');
    expect(compare('cancelled', { duplicata: duplicata(), acts: [act()] })).to.equal('act_in_force_there');
    expect(compare('settled', { duplicata: duplicata(), acts: [act()] })).to.equal('not_settled_there');
    expect(compare('settled', { duplicata: duplicata({ settled: true }), acts: [] })).to.equal('act_missing_there');
  });
});
