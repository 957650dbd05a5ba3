import { expect } from 'chai';
import { Money } from '../../domain/money';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { untilStatus } from '../support/lifecycle';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { anotherApi, testDb } from '../support/stack';
import { operationWorkflow } from '../support/temporal';
import { receivable } from '../support/simulate';

/** Each race is run a few times: an interleaving that breaks it rarely still breaks it here now and then. */
const ROUNDS = 3;

interface AuditRow { action: string; actor: { id: string }; after: Record<string, unknown> }

/**
 * Two approvals of one operation needing two, sent at the same instant through two api processes
 * (no shared event loop orders them), as two people clicking at once would (issue #29): the
 * workflow decides, and the audit trail says exactly what happened.
 */
describe('four-eyes races through two api processes, with the audit trail (issue #29)', function () {
  this.timeout(180_000);
  const stack = operationsStack();
  let token: string;
  let admin: string;
  let apis: ApiClient[];
  const approvers: { id: string; email: string; token: string }[] = [];

  before(async () => {
    apis = [stack.client, new ApiClient((await anotherApi()).url)];
    ({ token } = await buildOperationsIntegrator(stack.client, { dualApprovalAboveBrl: Money.of('60000.00') }));
    admin = await loginAs(stack.client, await buildUser({ roles: ['admin'] }));
    for (let n = 0; n < 2; n += 1) {
      const user = await buildUser({ roles: ['approver'] });
      approvers.push({ ...user, token: await loginAs(stack.client, user) });
    }
  });

  const waiting = async () => {
    const body = directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] });
    const id = (await createDirect(stack.client, token, body)).body.id as string;
    await untilStatus(stack.client, token, id, 'WAITING_APPROVAL');
    return id;
  };
  const approveAtOnce = (id: string, who: [{ token: string }, { token: string }]) =>
    Promise.all(who.map((w, n) => apis[n].post(`/v1/backoffice/operations/${id}/approve`, {}, { token: w.token })));
  const auditOf = async (id: string): Promise<AuditRow[]> => (await stack.client.get(`/v1/backoffice/audit-events?target_id=${id}`, { token: admin })).body.items;

  for (let round = 1; round <= ROUNDS; round += 1) {
    it(`round ${round}: two approvers at once: both 200, the operation moves on once with both approvals, two approve rows and no refusal`, async () => {
      const id = await waiting();
      const answers = await approveAtOnce(id, [approvers[0], approvers[1]]);
      expect(answers.map((r) => r.status), answers.map((r) => r.text).join('\n')).to.deep.equal([200, 200]);
      await untilStatus(stack.client, token, id, 'CONTRACT_SENT');
      const { state } = await operationWorkflow(id);
      expect(state.approvals.map((a) => a.userId)).to.have.members([approvers[0].id, approvers[1].id]);

      const page = (await stack.client.get(`/v1/backoffice/operations/${id}`, { token: admin })).body;
      expect(page.timeline.filter((e: { data: { lifecycle_status?: string } }) => e.data.lifecycle_status === 'PRE_APPROVED')).to.have.length(1);
      expect(page.approvals.map((a: { email: string }) => a.email)).to.have.members([approvers[0].email, approvers[1].email]);

      const rows = await auditOf(id);
      expect(rows.map((r) => r.action)).to.deep.equal(['operation.approve', 'operation.approve']);
      expect(rows.map((r) => r.actor.id)).to.have.members([approvers[0].id, approvers[1].id]);
    });

    it(`round ${round}: the same approver twice at once: one 200 and one 409 approver_already_approved, one approval, one approve row and one refused row`, async () => {
      const id = await waiting();
      const answers = await approveAtOnce(id, [approvers[0], approvers[0]]);
      expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text).join('\n')).to.deep.equal([200, 409]);
      expect(answers.find((r) => r.status === 409)!.body).to.deep.equal({ detail: 'approver_already_approved' });
      const { state } = await operationWorkflow(id);
      expect(state).to.include({ status: 'WAITING_APPROVAL' });
      expect(state.approvals.map((a) => a.userId)).to.deep.equal([approvers[0].id]);

      const rows = await auditOf(id);
      expect(rows.map((r) => [r.action, r.actor.id]).sort()).to.deep.equal([
        ['operation.approve', approvers[0].id], ['operation.approve_refused', approvers[0].id],
      ]);
      expect(rows.find((r) => r.action === 'operation.approve_refused')!.after).to.deep.equal({ status: 409, code: 'approver_already_approved' });
    });

    it(`round ${round}: two approvers not independent at once: one 200 and one 409 approvers_not_independent, one approval, one approve row and one refused row`, async () => {
      const [changer, changed] = [await buildUser({ roles: ['approver'] }), await buildUser({ roles: ['approver'] })];
      // The changer last changed the other's account just now, as an admin's role change would record it.
      await testDb()('users').where({ id: changed.id }).update({ changed_by: changer.id, changed_at: new Date() });
      const pair: [{ token: string }, { token: string }] = [{ token: await loginAs(stack.client, changer) }, { token: await loginAs(stack.client, changed) }];
      const id = await waiting();
      const answers = await approveAtOnce(id, pair);
      expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text).join('\n')).to.deep.equal([200, 409]);
      expect(answers.find((r) => r.status === 409)!.body.detail).to.include({ code: 'approvers_not_independent' });
      const { state } = await operationWorkflow(id);
      expect(state).to.include({ status: 'WAITING_APPROVAL' });
      expect(state.approvals).to.have.length(1);

      const rows = await auditOf(id);
      expect(rows.map((r) => r.action).sort()).to.deep.equal(['operation.approve', 'operation.approve_refused']);
      expect(rows.find((r) => r.action === 'operation.approve_refused')!.after).to.deep.equal({ status: 409, code: 'approvers_not_independent' });
    });
  }
});
