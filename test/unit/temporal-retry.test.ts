import { Metadata, status as grpcStatus } from '@grpc/grpc-js';
import { expect } from 'chai';
import { connectTemporal, temporalRetryOptions } from '../../api/temporal/client';
import { testConfig } from '../support/stack';

const answer = (code: grpcStatus, details: string) => ({ code, details, metadata: new Metadata() });
/** The server's refusal of an update that reached a run as it continued as new (Temporal 1.29, `consts.ErrWorkflowClosing`). */
const closing = answer(grpcStatus.RESOURCE_EXHAUSTED, 'workflow operation can not be applied because workflow is closing');

/** The worst delay over many draws: the schedule has ±20 % jitter. */
const longestDelay = (attempt: number, status: ReturnType<typeof answer>): number =>
  Math.max(...Array.from({ length: 200 }, () => temporalRetryOptions().delayFunction(attempt, status)));
const shortestDelay = (attempt: number, status: ReturnType<typeof answer>): number =>
  Math.min(...Array.from({ length: 200 }, () => temporalRetryOptions().delayFunction(attempt, status)));

describe('Temporal client retry schedule (issue #23)', () => {
  it('retries an update that raced a continue-as-new within about 100 ms, not the SDK default 1.7 s', () => {
    expect(temporalRetryOptions().retryableDecider(1, closing)).to.equal(true);
    expect(longestDelay(1, closing)).to.be.below(110);
    // Three retries together stay far under the 2 s every update is answered in.
    expect(longestDelay(1, closing) + longestDelay(2, closing) + longestDelay(3, closing)).to.be.below(700);
  });

  it('keeps backing off a second and more on any other RESOURCE_EXHAUSTED (a namespace over its rate limit)', () => {
    expect(shortestDelay(1, answer(grpcStatus.RESOURCE_EXHAUSTED, 'namespace rate limit exceeded'))).to.be.above(1_300);
  });

  it('keeps the SDK schedule for an unavailable server, and does not retry a refusal', () => {
    const unavailable = answer(grpcStatus.UNAVAILABLE, 'connection refused');
    expect(shortestDelay(1, unavailable)).to.be.above(130);
    expect(longestDelay(1, unavailable)).to.be.below(210);
    expect(temporalRetryOptions().retryableDecider(1, answer(grpcStatus.FAILED_PRECONDITION, 'workflow not ready'))).to.equal(false);
  });

  it('ends a call still backing off when the connection closes with CANCELLED, instead of throwing from the retry timer', async function () {
    this.timeout(10_000);
    // Nothing listens on port 1: every attempt is UNAVAILABLE, retried on the SDK schedule (about 170 ms, then 290 ms).
    const config = testConfig({ TEMPORAL_ADDRESS: '127.0.0.1:1' });
    const temporal = connectTemporal(config.temporal, config.payloadKeys);
    const call = temporal.connection.workflowService.getSystemInfo({}).then(() => null, (err: { code?: number }) => err);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await temporal.connection.close();
    // Before, the next attempt threw "Channel has been shut down" from its timer and the call never settled.
    const ended = await Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('still pending'), 5_000))]);
    expect(ended).to.have.property('code', grpcStatus.CANCELLED);
  });
});
