import { expect } from 'chai';
import { Money } from '../../domain/money';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { untilStatus } from '../support/lifecycle';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { recordHistory } from '../support/histories';
import { operationWorkflow } from '../support/temporal';
import { receivable } from '../support/simulate';

const amountBody = (amount: string) => directBody({ receivables: [receivable({ net_future_value: amount, requested_net_future_value: amount })] });

describe('four-eyes approval (issue #29)', () => {
  const stack = operationsStack();
  let client: ApiClient;
  let token: string;
  let first: { id: string; email: string; token: string };
  let second: { id: string; email: string; token: string };

  const approver = async () => {
    const user = await buildUser({ roles: ['approver'] });
    return { ...user, token: await loginAs(stack.client, user) };
  };

  before(async () => {
    client = stack.client;
    ({ token } = await buildOperationsIntegrator(client, { dualApprovalAboveBrl: Money.of('60000.00') }));
    first = await approver();
    second = await approver();
  });

  const waiting = async (amount = '70000.00') => {
    const id = (await createDirect(client, token, amountBody(amount))).body.id;
    await untilStatus(client, token, id, 'WAITING_APPROVAL');
    return id;
  };
  const approve = (id: string, who: { token: string }) => client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token: who.token });

  it('above the threshold: the first approval keeps WAITING_APPROVAL with 1 of 2, the same approver again is 409, a second approver moves it on', async () => {
    const id = await waiting();
    const once = await approve(id, first);
    expect(once.status, once.text).to.equal(200);
    expect(once.body).to.include({ lifecycle_status: 'WAITING_APPROVAL', approvals_required: 2 });
    expect(once.body.approvals).to.have.length(1);
    expect(once.body.approvals[0]).to.include({ user_id: first.id, email: first.email });

    const queue = await client.get('/v1/backoffice/approval-queue?limit=200', { token: second.token });
    const item = queue.body.items.find((i: { id: string }) => i.id === id);
    expect(item).to.include({ approvals_required: 2 });
    expect(item.approvals.map((a: { email: string }) => a.email)).to.deep.equal([first.email]);

    const again = await approve(id, first);
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.equal({ detail: 'approver_already_approved' });

    const twice = await approve(id, second);
    expect(twice.status, twice.text).to.equal(200);
    expect(twice.body.approvals.map((a: { user_id: string }) => a.user_id)).to.deep.equal([first.id, second.id]);
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    await recordHistory('dual-approval', id);
  });

  it('a deny by any approver after the first approval ends it', async () => {
    const id = await waiting();
    expect((await approve(id, first)).status).to.equal(200);
    const denied = await client.post(`/v1/backoffice/operations/${id}/deny`, { reason: 'second opinion' }, { token: second.token });
    expect(denied.status, denied.text).to.equal(200);
    expect(denied.body.lifecycle_status).to.equal('DENIED');
    expect((await approve(id, second)).status).to.equal(409);
  });

  it('at or below the threshold one approval is enough, as before', async () => {
    const id = await waiting('60000.00');
    const once = await approve(id, first);
    expect(once.status, once.text).to.equal(200);
    expect(once.body).to.include({ approvals_required: 1 });
    expect(once.body.approvals).to.deep.equal([]);
    await untilStatus(client, token, id, 'CONTRACT_SENT');
  });

  it('two approvers racing: both answered 200 and it moves on once, whatever the order', async () => {
    const id = await waiting();
    const [a, b] = await Promise.all([approve(id, first), approve(id, second)]);
    expect([a.status, b.status], `${a.text} ${b.text}`).to.deep.equal([200, 200]);
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    const { state } = await operationWorkflow(id);
    expect(state.approvals.map((x) => x.userId)).to.have.members([first.id, second.id]);
  });

  it('the same approver racing itself: one approval, the other 409, still WAITING_APPROVAL', async () => {
    const id = await waiting();
    const answers = await Promise.all([approve(id, first), approve(id, first)]);
    expect(answers.map((r) => r.status).sort()).to.deep.equal([200, 409]);
    const { state } = await operationWorkflow(id);
    expect(state).to.include({ status: 'WAITING_APPROVAL' });
    expect(state.approvals).to.have.length(1);
  });
});
