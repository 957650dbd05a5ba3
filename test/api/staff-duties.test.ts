import { expect } from 'chai';
import { Money } from '../../domain/money';
import type { StaffRole } from '../../domain/staff-roles';
import { totpCode, totpStep } from '../../platform/crypto/totp';
import { buildUser, loginAs } from '../support/factories';
import { untilStatus } from '../support/lifecycle';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { receivable } from '../support/simulate';
import { enrolmentTokenOf, mailbox, secondAdmin } from '../support/staff';
import { testDb } from '../support/stack';
import { DEV_SEED } from '../../db/seeds/dev-seed';

/** Segregation of duties among staff: no self-change, two admins for every grant of power, independent approvers, tokens only to the invitee. */
describe('staff: segregation of duties', () => {
  const stack = operationsStack();
  let admin: { id: string; token: string };
  before(async () => {
    const user = await buildUser({ roles: ['admin'] });
    admin = { id: user.id, token: await loginAs(stack.client, user) };
  });
  const email = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  const rolesOf = async (id: string) => (await testDb()('users').where({ id }).first('roles')).roles as StaffRole[];
  const auditOf = async (targetId: string) => (await testDb()('audit_events').where({ target_id: targetId }).orderBy('seq')).map((row) => row.action as string);

  it('refuses an admin\'s change of its own roles or status with 403 staff_self_change, and writes nothing', async () => {
    const grabbing = await stack.client.patch(`/v1/backoffice/users/${admin.id}`, { roles: ['admin', 'approver'] }, { token: admin.token });
    expect(grabbing.status, grabbing.text).to.equal(403);
    expect(grabbing.body.detail).to.include({ code: 'staff_self_change' });
    expect(await rolesOf(admin.id)).to.deep.equal(['admin']);
    expect(await testDb()('staff_role_grants').where({ user_id: admin.id })).to.have.length(0);
  });

  it('an invitation as approver answers 202 with a pending grant and no token; the token reaches only the invitee\'s mailbox; another admin confirms', async () => {
    const address = email('approver');
    const invited = await stack.client.post('/v1/backoffice/users', { email: address, name: 'Pending Approver', role: 'approver' }, { token: admin.token });
    expect(invited.status, invited.text).to.equal(202);
    expect(invited.text).not.to.match(/enrolment_token/);
    expect(invited.body).to.include({ email: address, status: 'invited', role: null });
    expect(invited.body.pending_grant).to.include({ user_id: invited.body.id, status: 'pending', requested_by: admin.id, confirmed_by: null });
    expect(invited.body.pending_grant.roles).to.deep.equal(['approver']);
    expect(await rolesOf(invited.body.id)).to.deep.equal([]);

    const [mail] = await mailbox(address);
    expect(mail.subject).to.match(/invitation/i);
    expect(mail.text).to.include(mail.enrolment_token!);
    expect(mail.enrolment_token).to.match(/^[A-Za-z0-9_-]{43}$/);

    const grantId = invited.body.pending_grant.id as string;
    const listed = await stack.client.get('/v1/backoffice/role-grants', { token: admin.token });
    expect(listed.body.items.map((g: { id: string }) => g.id)).to.include(grantId);
    const alone = await stack.client.post(`/v1/backoffice/role-grants/${grantId}/confirm`, undefined, { token: admin.token });
    expect(alone.status, alone.text).to.equal(403);
    expect(alone.body.detail).to.include({ code: 'grant_needs_second_admin' });
    expect(await rolesOf(invited.body.id)).to.deep.equal([]);

    const other = await secondAdmin(stack.client);
    const confirmed = await stack.client.post(`/v1/backoffice/role-grants/${grantId}/confirm`, undefined, { token: other.token });
    expect(confirmed.status, confirmed.text).to.equal(200);
    expect(confirmed.body).to.include({ id: grantId, status: 'confirmed', confirmed_by: other.id });
    expect(confirmed.body.user.roles).to.deep.equal(['approver']);
    expect(await rolesOf(invited.body.id)).to.deep.equal(['approver']);
    const again = await stack.client.post(`/v1/backoffice/role-grants/${grantId}/confirm`, undefined, { token: other.token });
    expect(again.status).to.equal(409);
    expect(again.body.detail).to.include({ code: 'role_grant_not_pending' });
    expect(await auditOf(invited.body.id)).to.deep.equal(['user.invite', 'role_grant.request', 'role_grant.confirm']);
    expect((await testDb()('audit_events').where({ target_id: grantId })).map((row) => row.action)).to.deep.equal(['role_grant.confirm_refused', 'role_grant.confirm_refused']);

    const enrolled = await stack.client.post('/v1/auth/enrol', { enrolment_token: await enrolmentTokenOf(address), password: 'a-long-enough-password' });
    expect(enrolled.status, enrolled.text).to.equal(200);
    expect(enrolled.body.user.roles).to.deep.equal(['approver']);
  });

  it('a change of roles that grants approver or admin waits for a second admin; one that grants neither applies at once; the holder cannot confirm its own grant', async () => {
    const viewer = await buildUser({ roles: ['viewer'] });
    const analyst = await stack.client.patch(`/v1/backoffice/users/${viewer.id}`, { roles: ['viewer', 'analyst'] }, { token: admin.token });
    expect(analyst.status, analyst.text).to.equal(200);
    expect(await rolesOf(viewer.id)).to.deep.equal(['viewer', 'analyst']);

    const promoting = await stack.client.patch(`/v1/backoffice/users/${viewer.id}`, { roles: ['admin'] }, { token: admin.token });
    expect(promoting.status, promoting.text).to.equal(202);
    expect(promoting.body.roles).to.deep.equal(['viewer', 'analyst']);
    expect(promoting.body.pending_grant.roles).to.deep.equal(['admin']);
    expect(await rolesOf(viewer.id)).to.deep.equal(['viewer', 'analyst']);

    const holder = await buildUser({ roles: ['admin'] });
    const holderToken = await loginAs(stack.client, holder);
    const pending = await stack.client.patch(`/v1/backoffice/users/${holder.id}`, { roles: ['admin', 'approver'] }, { token: admin.token });
    expect(pending.status).to.equal(202);
    const own = await stack.client.post(`/v1/backoffice/role-grants/${pending.body.pending_grant.id}/confirm`, undefined, { token: holderToken });
    expect(own.status).to.equal(403);
    expect(own.body.detail).to.include({ code: 'staff_self_change' });
    expect(await rolesOf(holder.id)).to.deep.equal(['admin']);
  });

  it('the dev seed\'s two admins grant approver together: admin asks, admin2 confirms', async () => {
    const signIn = async (who: { email: string; password: string; totpSecret: string }) => {
      const session = await stack.client.post('/v1/auth/login', { email: who.email, password: who.password, totp: totpCode(who.totpSecret, totpStep(new Date())) });
      expect(session.status, session.text).to.equal(200);
      return session.body.access_token as string;
    };
    const [first, second] = [await signIn(DEV_SEED.admin), await signIn(DEV_SEED.admin2)];
    const invited = await stack.client.post('/v1/backoffice/users', { email: email('seeded'), name: 'Seeded Grant', role: 'approver' }, { token: first });
    expect(invited.status, invited.text).to.equal(202);
    const confirmed = await stack.client.post(`/v1/backoffice/role-grants/${invited.body.pending_grant.id}/confirm`, undefined, { token: second });
    expect(confirmed.status, confirmed.text).to.equal(200);
    expect(confirmed.body.user.roles).to.deep.equal(['approver']);
  });

  describe('two approvals of one operation come from independent people', () => {
    async function waitingForTwo() {
      const { token } = await buildOperationsIntegrator(stack.client, { dualApprovalAboveBrl: Money.of('60000.00') });
      const id = (await createDirect(stack.client, token, directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] }))).body.id as string;
      await untilStatus(stack.client, token, id, 'WAITING_APPROVAL');
      return id;
    }
    const approve = (id: string, token: string) => stack.client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token });

    /** An admin who is also an approver invites an approver, confirmed by another admin: the inviter made the invitee's account. */
    async function makerAndMade() {
      const maker = await buildUser({ roles: ['admin', 'approver'] });
      const makerToken = await loginAs(stack.client, maker);
      const address = email('made');
      const invited = await stack.client.post('/v1/backoffice/users', { email: address, name: 'Made', role: 'approver' }, { token: makerToken });
      const other = await secondAdmin(stack.client);
      expect((await stack.client.post(`/v1/backoffice/role-grants/${invited.body.pending_grant.id}/confirm`, undefined, { token: other.token })).status).to.equal(200);
      const enrolled = await stack.client.post('/v1/auth/enrol', { enrolment_token: await enrolmentTokenOf(address), password: 'a-long-enough-password' });
      const session = await stack.client.post('/v1/auth/login', { email: address, password: 'a-long-enough-password', totp: totpCode(enrolled.body.totp_secret, totpStep(new Date())) });
      expect(session.status, session.text).to.equal(200);
      return { maker: makerToken, made: session.body.access_token as string, other };
    }

    it('refuses the second approval with 409 approvers_not_independent when one approver created the other\'s account, in either order; an independent approver moves it on', async () => {
      const { maker, made } = await makerAndMade();
      for (const [first, second] of [[made, maker], [maker, made]]) {
        const id = await waitingForTwo();
        expect((await approve(id, first)).status).to.equal(200);
        const refused = await approve(id, second);
        expect(refused.status, refused.text).to.equal(409);
        expect(refused.body.detail).to.include({ code: 'approvers_not_independent' });
        const independent = await approve(id, await loginAs(stack.client, await buildUser({ roles: ['approver'] })));
        expect(independent.status, independent.text).to.equal(200);
        expect(independent.body.lifecycle_status).to.not.equal('WAITING_APPROVAL');
      }
    });

    it('refuses it when one approver last changed the other\'s account in the last 30 days, and allows it once that change is older', async () => {
      const changer = await buildUser({ roles: ['admin', 'approver'] });
      const changerToken = await loginAs(stack.client, changer);
      const changed = await buildUser({ roles: ['approver'] });
      expect((await stack.client.patch(`/v1/backoffice/users/${changed.id}`, { roles: ['approver', 'analyst'] }, { token: changerToken })).status).to.equal(200);
      const changedToken = await loginAs(stack.client, changed);
      const id = await waitingForTwo();
      expect((await approve(id, changedToken)).status).to.equal(200);
      expect((await approve(id, changerToken)).body.detail).to.include({ code: 'approvers_not_independent' });
      await testDb()('users').where({ id: changed.id }).update({ changed_at: new Date(Date.now() - 31 * 86_400_000) });
      const allowed = await approve(id, changerToken);
      expect(allowed.status, allowed.text).to.equal(200);
    });
  });

  it('refuses to enrol a disabled invitation, as an unknown token (404), and an expired one', async () => {
    const address = email('revoked');
    const invited = await stack.client.post('/v1/backoffice/users', { email: address, name: 'Revoked', role: 'viewer' }, { token: admin.token });
    expect((await stack.client.patch(`/v1/backoffice/users/${invited.body.id}`, { status: 'disabled' }, { token: admin.token })).status).to.equal(200);
    const token = await enrolmentTokenOf(address);
    const refused = await stack.client.post('/v1/auth/enrol', { enrolment_token: token, password: 'a-long-enough-password' });
    expect(refused.status, refused.text).to.equal(404);
    expect(refused.body).to.deep.equal({ detail: 'enrolment_token_invalid' });
    expect((await testDb()('users').where({ id: invited.body.id }).first('enrolled_at')).enrolled_at).to.equal(null);

    const expiring = email('expired');
    const other = await stack.client.post('/v1/backoffice/users', { email: expiring, name: 'Expired', role: 'viewer' }, { token: admin.token });
    await testDb()('users').where({ id: other.body.id }).update({ enrolment_expires_at: new Date(Date.now() - 1000) });
    expect((await stack.client.post('/v1/auth/enrol', { enrolment_token: await enrolmentTokenOf(expiring), password: 'a-long-enough-password' })).status).to.equal(404);
  });
});
