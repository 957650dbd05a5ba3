import { expect } from 'chai';
import { acceptsRequest, LIFECYCLE_STATUSES } from '../../domain/operation-lifecycle';
import { PIX_CALL_RETRY, PIX_MANUAL_RETRY } from '../../domain/pix-retry';

describe('the PIX retry policy (domain/pix-retry.ts)', () => {
  it('retries one idempotent call with no limit on attempts and names no failure type it would not retry: refusals are answers, not failures', () => {
    expect(PIX_CALL_RETRY.maximumAttempts).to.equal(undefined);
    expect(PIX_CALL_RETRY.nonRetryableErrorTypes).to.equal(undefined);
  });

  it('lets a human retry a payment only from DISBURSEMENT_FAILED, into DISBURSING, refused otherwise with the contract\'s code', () => {
    expect(LIFECYCLE_STATUSES.filter((status) => acceptsRequest('retryDisbursement', status))).to.deep.equal(['DISBURSEMENT_FAILED']);
    expect(PIX_MANUAL_RETRY.to).to.equal('DISBURSING');
    expect(PIX_MANUAL_RETRY.refusal).to.equal('operation_cannot_retry_disbursement');
  });
});
