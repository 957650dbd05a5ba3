import { expect } from 'chai';
import { EVENT_TYPES } from '../../domain/events';
import { NOT_TRIGGERED, TRIGGERS } from '../../cli/trigger';

/** `trigger` answers for every kind the api emits: it causes it, or says why an integrator cannot. */
describe('the CLI\'s trigger against the event catalogue', () => {
  it('causes or explains every event kind, and names none the api does not emit', () => {
    const caused = Object.keys(TRIGGERS);
    const explained = Object.keys(NOT_TRIGGERED);
    expect([...caused, ...explained]).to.have.members([...EVENT_TYPES]);
    expect(caused.filter((kind) => explained.includes(kind))).to.deep.equal([]);
  });
});
