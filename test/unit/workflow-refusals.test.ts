import { expect } from 'chai';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { workflowRefusal } from '../../api/temporal/workflow-refusals';

describe('a failed workflow update as our error', () => {
  const failed = (cause: Error) => new WorkflowUpdateFailedError('Workflow Update failed', cause);

  it('is the workflow\'s refusal when its failure is non-retryable: the type is the code, the first detail the body', () => {
    const detail = { code: 'title_already_paid', message: 'The title is already paid' };
    const err = workflowRefusal(failed(ApplicationFailure.nonRetryable('paid', 'title_already_paid', detail)), 'title_payment_unavailable');
    expect(err).to.include({ status: 409 });
    expect(err!.detail).to.deep.equal(detail);
  });

  it('is 503 when the server gave the update back unprocessed (a retryable failure): nothing was applied', () => {
    // What the server answers when the worker never took the update in (seen under a burst of
    // updates to one workflow): not a business refusal, so never an undocumented 409.
    const err = workflowRefusal(failed(ApplicationFailure.retryable('Workflow Update was rejected because it was not processed by worker', 'UnprocessedUpdate')), 'title_payment_unavailable');
    expect(err).to.include({ status: 503 });
    expect(err!.detail).to.equal('title_payment_unavailable');
  });

  it('is not a refusal when the update did not fail', () => {
    expect(workflowRefusal(new Error('connection reset'), 'title_payment_unavailable')).to.equal(null);
  });
});
