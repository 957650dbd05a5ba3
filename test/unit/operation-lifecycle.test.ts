import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CANCELLABLE_STATES, DISPATCHED_STATES, LIFECYCLE_STATUSES, PENDING_REQUESTS, readModelMove, settleRequest, SIGNABLE_STATES, statesLeadingTo, TRANSITIONS, WAITING_FOR,
} from '../../domain/operation-lifecycle';

describe('the operation state table', () => {
  it('matches DESIGN.md §5: cancel up to CONTRACT_SENT (and from DISBURSEMENT_FAILED), dispatch from the approved states and CONTRACT_ERROR', () => {
    expect([...CANCELLABLE_STATES]).to.have.members(['WAITING_APPROVAL', 'APPROVED_DIRECT', 'PRE_APPROVED', 'CONTRACT_ERROR', 'CONTRACT_SENT', 'DISBURSEMENT_FAILED']);
    expect([...SIGNABLE_STATES]).to.have.members(['PRE_APPROVED', 'APPROVED_DIRECT', 'CONTRACT_ERROR']);
    expect(statesLeadingTo('CONTRACT_ERROR')).to.have.members(['APPROVED_DIRECT', 'PRE_APPROVED', 'CONTRACT_SENT']);
    expect(statesLeadingTo('PAID')).to.deep.equal(['DISBURSING']);
  });

  it('derives the states with the contract out from the table: CONTRACT_SENT and what only it leads to, never CONTRACT_ERROR or CANCELLED', () => {
    expect([...DISPATCHED_STATES]).to.have.members(['CONTRACT_SENT', 'SIGNED', 'DISBURSING', 'DISBURSEMENT_FAILED', 'PAID', 'SETTLED']);
    // Closed upstream: every way into a dispatched state other than CONTRACT_SENT comes from a dispatched state.
    for (const state of DISPATCHED_STATES.filter((s) => s !== 'CONTRACT_SENT')) {
      expect(statesLeadingTo(state).filter((from) => !DISPATCHED_STATES.includes(from)), state).to.deep.equal([]);
    }
  });

  it('lets a read-model write run again after later moves committed (a re-run workflow task), and refuses only a row the target cannot lead to', () => {
    expect(readModelMove('SIGNED', 'DISBURSING')).to.equal('move');
    expect(readModelMove('DISBURSING', 'DISBURSING')).to.equal('done');
    expect(readModelMove('DISBURSING', 'SIGNED')).to.equal('done');
    expect(readModelMove('PAID', 'SIGNED')).to.equal('done');
    expect(readModelMove('SETTLED', 'PRE_APPROVED')).to.equal('done');
    expect(readModelMove('CONTRACT_ERROR', 'CONTRACT_SENT')).to.equal('move');
    expect(readModelMove('DENIED', 'SIGNED')).to.equal('refuse');
    expect(readModelMove('DENIED', 'PRE_APPROVED')).to.equal('refuse');
    expect(readModelMove('WAITING_APPROVAL', 'PAID')).to.equal('refuse');
  });

  it('settles a pending request at every move: answered by the move it asked for, refused by one that makes it unreachable, else still pending', () => {
    const cases = [
      ['cancel', 'CANCELLED', 'answered'], ['cancel', 'SIGNED', 'refused'], ['cancel', 'DENIED', 'refused'], ['cancel', 'CONTRACT_SENT', 'pending'],
      ['cancel', 'CONTRACT_ERROR', 'pending'], ['retryDisbursement', 'DISBURSING', 'answered'], ['retryDisbursement', 'CANCELLED', 'refused'],
    ] as const;
    for (const [request, status, outcome] of cases) expect(settleRequest(request, status), `${request} at ${status}`).to.equal(outcome);
    // Every move the table allows from where a request may be asked ends it or keeps it: none leaves it waiting on a state it can no longer reach.
    for (const [request, { from, to }] of Object.entries(PENDING_REQUESTS) as [keyof typeof PENDING_REQUESTS, (typeof PENDING_REQUESTS)[keyof typeof PENDING_REQUESTS]][]) {
      for (const status of from) {
        for (const next of TRANSITIONS[status]) {
          const outcome = settleRequest(request, next);
          if (outcome === 'pending') expect(TRANSITIONS[next], `${request} pending in ${next}`).to.include(to);
        }
      }
    }
  });

  it('leads every state somewhere reachable from creation, and ends only in the terminal ones', () => {
    const reached = new Set<string>(['WAITING_APPROVAL', 'APPROVED_DIRECT']);
    for (let grew = true; grew;) {
      grew = false;
      for (const from of [...reached]) {
        for (const to of TRANSITIONS[from as keyof typeof TRANSITIONS]) if (!reached.has(to)) { reached.add(to); grew = true; }
      }
    }
    expect([...reached]).to.have.members([...LIFECYCLE_STATUSES]);
    expect(LIFECYCLE_STATUSES.filter((s) => TRANSITIONS[s].length === 0)).to.have.members(['SETTLED', 'DENIED', 'CANCELLED']);
  });

  it('is what the runbook says each state waits for, word for word', () => {
    const runbook = readFileSync(join(__dirname, '../../docs/operations.md'), 'utf8');
    for (const status of LIFECYCLE_STATUSES) {
      const row = runbook.split('\n').find((line) => line.startsWith('| ') && line.split('|')[1].includes(`\`${status}\``));
      expect(row, `runbook row for ${status}`).to.be.a('string');
      expect(row!.split('|')[2].trim(), status).to.equal(WAITING_FOR[status]);
    }
  });
});
