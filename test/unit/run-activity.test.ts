import { expect } from 'chai';
import { RunActivity } from '../../workflows/operation/run-activity';

/** A step the test ends when it chooses, so writes can be seen overlapping. */
function held(): { step: () => Promise<void>; end: () => void; fail: (err: Error) => void } {
  let end!: () => void;
  let fail!: (err: Error) => void;
  const done = new Promise<void>((resolve, reject) => { end = resolve; fail = reject; });
  return { step: () => done, end, fail };
}

describe('the operation run\'s activity (workflows/operation/run-activity.ts)', () => {
  it('is idle with nothing in flight, and answers every question with no', () => {
    const activity = new RunActivity();
    expect(activity.toString()).to.equal('idle');
    expect([activity.deciding, activity.writingDecision, activity.reconciling, activity.movingReadModel]).to.deep.equal([false, false, false, false]);
  });

  it('holds overlapping writes: a second approver\'s decision, and its move, while the first approval is recorded', async () => {
    const activity = new RunActivity();
    const first = held();
    const decision = held();
    const recording = activity.during({ kind: 'first approval', approver: 'approver-1' }, first.step);
    expect([activity.deciding, activity.writingDecision, activity.movingReadModel]).to.deep.equal([false, true, false]);

    const deciding = activity.during({ kind: 'decision', decision: 'approve' }, async () => {
      await activity.during({ kind: 'move', to: 'PRE_APPROVED' }, async () => undefined);
      await decision.step();
    });
    expect(activity.toString()).to.equal('recording the first approval (approver-1) + applying an approval + moving the read model to PRE_APPROVED');
    expect([activity.deciding, activity.writingDecision, activity.movingReadModel]).to.deep.equal([true, true, true]);

    first.end();
    await recording;
    expect(activity.toString()).to.equal('applying an approval');
    expect([activity.deciding, activity.writingDecision, activity.movingReadModel]).to.deep.equal([true, true, false]);

    decision.end();
    await deciding;
    expect(activity.toString()).to.equal('idle');
  });

  it('ends a write whose step fails, and passes the failure on', async () => {
    const activity = new RunActivity();
    const reconciliation = held();
    const running = activity.during({ kind: 'reconciliation', attempt: 2 }, reconciliation.step);
    expect(activity.toString()).to.equal('reconciling the PIX of attempt 2');
    expect([activity.reconciling, activity.movingReadModel, activity.writingDecision]).to.deep.equal([true, true, false]);

    reconciliation.fail(new Error('activity gave up'));
    await running.then(() => expect.fail('the failure was swallowed'), (err: Error) => expect(err.message).to.equal('activity gave up'));
    expect(activity.toString()).to.equal('idle');
    expect(activity.reconciling).to.equal(false);
  });

  it('counts a denial as a decision in flight but not as a read-model move (its write releases the operation; a test clock may answer meanwhile)', async () => {
    const activity = new RunActivity();
    const denial = held();
    const denying = activity.during({ kind: 'decision', decision: 'deny' }, denial.step);
    expect(activity.toString()).to.equal('applying a denial');
    expect([activity.deciding, activity.writingDecision, activity.movingReadModel]).to.deep.equal([true, true, false]);
    denial.end();
    await denying;
    expect(activity.deciding).to.equal(false);
  });
});
