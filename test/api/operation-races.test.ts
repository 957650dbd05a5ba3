import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OperationState } from '../../workflows/operation/workflow';
import { operationWorkflowId } from '../../domain/workflow-ids';
import { createDirect, directBody, operationsStack } from '../support/operations';
import { receivable } from '../support/simulate';
import { signersOf, untilStatus } from '../support/lifecycle';
import { temporal } from '../support/temporal';
import { signingForm } from '../sandbox/support';
import { payerPayment, simulatePayerPayment } from '../support/titles';

/** How long after the last signer presses "sign" the integrator's cancel is sent. */
const OFFSETS_MS = [0, 0, 10, 20, 30, 40, 50, 60, 80, 100, 125, 150, 200, 250, 300, 400, 500, 750, 1_000, 1_500];
/**
 * Issue #23: every request answered within 2 s. Two causes of answers near 2 s were found and fixed: an
 * update that reached a run as it continued as new was retried by the client after 1.7 s
 * (api/temporal/client.ts), and the test server held a run continued as new within its first second
 * for the rest of that second (scripts/lib/temporal.mjs).
 */
const ANSWER_BOUND_MS = 2_000;

/**
 * Races as integrators and staff run them, first the one of issue #23: an embedded-signature
 * operation whose last signer signs while the integrator cancels. Whichever move the workflow
 * applies first wins, and the other request is answered at once: 200 CANCELLED, or 409 and the
 * operation goes on to PAID. Then two requests sent together, of which exactly one applies.
 */
describe('requests racing the workflow and each other', function () {
  this.timeout(300_000);
  const stack = operationsStack();

  const workflowResult = async (operationId: string): Promise<OperationState> => {
    const handle = (await temporal()).workflow.getHandle(operationWorkflowId(operationId));
    return Promise.race([
      handle.result() as Promise<OperationState>,
      sleep(30_000).then(() => { throw new Error(`workflow of ${operationId} still running after 30 s`); }),
    ]);
  };

  /** Pays every title in full, so the operation's workflow has nothing left to track. */
  const closeTitles = async (operation: { titles: { id: string; requested_net_future_value: string }[] }) => {
    for (const title of operation.titles) {
      const paid = await simulatePayerPayment(stack.client, stack.token, title.id, payerPayment({ paid_amount_brl: title.requested_net_future_value }));
      expect(paid.status, paid.text).to.equal(201);
    }
  };

  for (const [race, offset] of OFFSETS_MS.entries()) {
    it(`race ${race + 1}: cancel sent ${offset} ms after the signature: 200 CANCELLED or 409 then PAID, within 2 s, and the workflow completes`, async () => {
      const created = await createDirect(stack.client, stack.token, directBody({ embedded_signature: true, email: `race+${randomUUID()}@example.com` }));
      expect(created.status, created.text).to.equal(201);
      const id = created.body.id;
      await untilStatus(stack.client, stack.token, id, 'CONTRACT_SENT');
      const { signers } = await signersOf(stack.client, stack.token, id);
      const sign = await signingForm(signers[signers.length - 1].sign_url);

      const signed = sign();
      await sleep(offset);
      const sent = Date.now();
      const cancel = await stack.client.post(`/v1/operations/${id}/cancel`, { reason: 'race' }, { token: stack.token });
      const answeredIn = Date.now() - sent;
      expect((await signed).status).to.equal(200);

      expect(answeredIn, `${cancel.status} ${cancel.text}`).to.be.below(ANSWER_BOUND_MS);
      if (cancel.status === 200) {
        expect(cancel.body.lifecycle_status).to.equal('CANCELLED');
        expect(await workflowResult(id)).to.include({ status: 'CANCELLED' });
        return;
      }
      expect(cancel.status, cancel.text).to.equal(409);
      expect(cancel.body).to.deep.equal({ detail: 'operation_cannot_be_cancelled' });
      const paid = await untilStatus(stack.client, stack.token, id, 'PAID');
      await closeTitles(paid);
      expect(await workflowResult(id)).to.include({ status: 'SETTLED' });
      await untilStatus(stack.client, stack.token, id, 'SETTLED');
    });
  }

  /** Two requests sent together: each answered within 2 s, exactly one of them applied. */
  const together = async (a: () => Promise<{ status: number; body: any; text: string }>, b: () => Promise<{ status: number; body: any; text: string }>) => {
    const started = Date.now();
    const answers = await Promise.all([a(), b()]);
    expect(Date.now() - started, answers.map((r) => `${r.status} ${r.text}`).join(' | ')).to.be.below(ANSWER_BOUND_MS);
    expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text).join(' | ')).to.deep.equal([200, 409]);
    return answers;
  };

  it('a deny and a cancel sent together: one applies (DENIED or CANCELLED), the other is refused with its 409', async () => {
    const created = await createDirect(stack.client, stack.token, directBody({ receivables: [receivable({ net_future_value: '90000.00', requested_net_future_value: '90000.00' })] }));
    const id = created.body.id;
    await untilStatus(stack.client, stack.token, id, 'WAITING_APPROVAL');
    const [deny, cancel] = await together(
      () => stack.client.post(`/v1/backoffice/operations/${id}/deny`, { reason: 'race' }, { token: stack.backoffice }),
      () => stack.client.post(`/v1/operations/${id}/cancel`, { reason: 'race' }, { token: stack.token }),
    );
    const [winner, refusal] = deny.status === 200 ? ['DENIED', cancel.body] : ['CANCELLED', deny.body];
    expect(refusal).to.deep.equal({ detail: deny.status === 200 ? 'operation_cannot_be_cancelled' : 'operation_cannot_be_denied' });
    expect(await workflowResult(id)).to.include({ status: winner });
    await untilStatus(stack.client, stack.token, id, winner);
  });

  it('a retry of a refused PIX and a cancel sent together: one applies (PAID or CANCELLED), the other is refused with its 409', async () => {
    const created = await createDirect(stack.client, stack.token, directBody({ email: `pix-reject-once+${randomUUID()}@example.com` }));
    const id = created.body.id;
    await untilStatus(stack.client, stack.token, id, 'CONTRACT_SENT');
    const { signers } = await signersOf(stack.client, stack.token, id);
    await (await signingForm(signers[0].sign_url))();
    await untilStatus(stack.client, stack.token, id, 'DISBURSEMENT_FAILED');
    const [retry, cancel] = await together(
      () => stack.client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: stack.backoffice }),
      () => stack.client.post(`/v1/operations/${id}/cancel`, { reason: 'race' }, { token: stack.token }),
    );
    if (retry.status === 200) {
      expect(cancel.body).to.deep.equal({ detail: 'operation_cannot_be_cancelled' });
      await untilStatus(stack.client, stack.token, id, 'PAID');
      return;
    }
    expect(retry.body).to.deep.equal({ detail: 'operation_cannot_retry_disbursement' });
    expect(cancel.body.lifecycle_status).to.equal('CANCELLED');
    expect(await workflowResult(id)).to.include({ status: 'CANCELLED' });
  });
});
