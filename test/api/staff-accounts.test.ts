import { expect } from 'chai';
import { Money } from '../../domain/money';
import { totpCode, totpStep } from '../../platform/crypto/totp';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { untilStatus } from '../support/lifecycle';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { anotherApi } from '../support/stack';
import { receivable } from '../support/simulate';
import { enrolmentTokenOf, inviteStaff } from '../support/staff';

describe('staff accounts (issue #29)', () => {
  const stack = operationsStack();
  let admin: string;
  let adminEmail: string;
  before(async () => {
    const user = await buildUser({ roles: ['admin'] });
    adminEmail = user.email;
    admin = await loginAs(stack.client, user);
  });

  /** Invited by the admin (an approver confirmed by a second admin), enrolled with the token from its mailbox, signed in with a code computed from the secret it was given. */
  async function staffMember(client: ApiClient, role: 'approver' | 'viewer') {
    const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
    const invited = await inviteStaff(client, admin, { email, name: `Test ${role}`, roles: [role] });
    const password = 'a-long-enough-password';
    const enrolled = await client.post('/v1/auth/enrol', { enrolment_token: invited.enrolmentToken, password });
    expect(enrolled.status, enrolled.text).to.equal(200);
    expect(enrolled.body.otpauth_uri).to.match(/^otpauth:\/\/totp\/.*secret=[A-Z2-7]+.*digits=6&period=30$/);
    const secret = enrolled.body.totp_secret as string;
    const session = await client.post('/v1/auth/login', { email, password, totp: totpCode(secret, totpStep(new Date())) });
    expect(session.status, session.text).to.equal(200);
    return { id: invited.id, email, token: session.body.access_token as string, enrolmentToken: invited.enrolmentToken };
  }

  it('an admin creates two approvers and a viewer; they enrol and sign in with TOTP; both approvers are needed above the threshold, the viewer is refused', async () => {
    const { client } = stack;
    const [first, second, viewer] = [await staffMember(client, 'approver'), await staffMember(client, 'approver'), await staffMember(client, 'viewer')];
    const { token } = await buildOperationsIntegrator(client, { dualApprovalAboveBrl: Money.of('60000.00') });
    const id = (await createDirect(client, token, directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] }))).body.id;
    await untilStatus(client, token, id, 'WAITING_APPROVAL');
    const approve = (who: { token: string }) => client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token: who.token });
    expect((await approve(viewer)).status).to.equal(403);
    expect((await approve(first)).body).to.include({ lifecycle_status: 'WAITING_APPROVAL' });
    expect((await approve(first)).body).to.deep.equal({ detail: 'approver_already_approved' });
    expect((await approve(second)).body.approvals.map((a: { email: string }) => a.email)).to.deep.equal([first.email, second.email]);

    const list = await client.get('/v1/backoffice/users', { token: admin });
    expect(list.body.items.filter((u: { email: string }) => [first.email, second.email, viewer.email].includes(u.email)).map((u: { status: string }) => u.status))
      .to.deep.equal(['active', 'active', 'active']);
    // Never invited (made in SQL, as the dev seed's accounts are): active, not waiting for an enrolment.
    expect(list.body.items.find((u: { email: string }) => u.email === adminEmail).status).to.equal('active');
    const audit = await client.get(`/v1/backoffice/audit-events?action=user.invite&target_id=${first.id}`, { token: admin });
    expect(audit.body.items).to.have.length(1);
    expect(JSON.stringify(audit.body.items[0])).not.to.include(first.enrolmentToken);
  });

  it('refuses a password under 12 characters with 422 password_too_weak and a used token with 404', async () => {
    const { client } = stack;
    const email = `short-${Date.now()}@example.com`;
    const invited = await client.post('/v1/backoffice/users', { email, name: 'Short', role: 'viewer' }, { token: admin });
    expect(invited.status, invited.text).to.equal(201);
    expect(invited.body).to.include({ email, role: 'viewer', status: 'invited', totp_enrolled: false });
    const token = await enrolmentTokenOf(email);
    const short = await client.post('/v1/auth/enrol', { enrolment_token: token, password: 'elevenchars' });
    expect(short.status).to.equal(422);
    expect(short.body.detail).to.include({ code: 'password_too_weak' });
    expect((await client.post('/v1/auth/enrol', { enrolment_token: token, password: 'twelve-chars' })).status).to.equal(200);
    const again = await client.post('/v1/auth/enrol', { enrolment_token: token, password: 'twelve-chars' });
    expect(again.status).to.equal(404);
    expect(again.body).to.deep.equal({ detail: 'enrolment_token_invalid' });
  });

  it('a disabled approver\'s token is refused on a second api process within 100 ms (401 user_disabled); re-enabled, it works again', async () => {
    const { client } = stack;
    const other = new ApiClient((await anotherApi()).url);
    const approver = await staffMember(client, 'approver');
    expect((await other.get('/v1/backoffice/approval-queue', { token: approver.token })).status).to.equal(200);
    const disabled = await client.request('PATCH', `/v1/backoffice/users/${approver.id}`, { body: { status: 'disabled' }, token: admin });
    expect(disabled.status, disabled.text).to.equal(200);
    expect(disabled.body.status).to.equal('disabled');
    // The bar is the revocation's spread to the other process: the delay until a request sent to it is
    // refused, not that request's own time to answer, which a loaded machine stretches on its own.
    const started = Date.now();
    let refused;
    let sentAt;
    do {
      sentAt = Date.now();
      refused = await other.get('/v1/backoffice/approval-queue', { token: approver.token });
    } while (refused.status === 200 && Date.now() - started < 1000);
    expect(sentAt - started, 'refused within 100 ms').to.be.below(100);
    expect(refused.status).to.equal(401);
    expect(refused.body).to.deep.equal({ detail: 'user_disabled' });
    await client.request('PATCH', `/v1/backoffice/users/${approver.id}`, { body: { status: 'active' }, token: admin });
    const ok = await client.get('/v1/backoffice/approval-queue', { token: approver.token });
    expect(ok.status).to.equal(200);
  });

  it('gives an account several roles through the API (admin and approver), changes them, and refuses role and roles together', async () => {
    const { client } = stack;
    const email = `two-roles-${Date.now()}@example.com`;
    const invited = await inviteStaff(client, admin, { email, name: 'Two Roles', roles: ['admin', 'approver'] });
    const listed = (await client.get('/v1/backoffice/users', { token: admin })).body.items.find((u: { email: string }) => u.email === email);
    expect(listed).to.include({ role: 'admin' });
    expect(listed.roles).to.deep.equal(['admin', 'approver']);
    const password = 'a-long-enough-password';
    const { totp_secret: secret } = (await client.post('/v1/auth/enrol', { enrolment_token: invited.enrolmentToken, password })).body;
    const session = await client.post('/v1/auth/login', { email, password, totp: totpCode(secret, totpStep(new Date())) });
    expect(session.body.scopes).to.include.members(['backoffice:admin', 'backoffice:decide']);

    const narrowed = await client.request('PATCH', `/v1/backoffice/users/${invited.id}`, { body: { roles: ['viewer', 'analyst'] }, token: admin });
    expect(narrowed.status, narrowed.text).to.equal(200);
    expect(narrowed.body).to.include({ role: 'viewer' });
    expect(narrowed.body.roles).to.deep.equal(['viewer', 'analyst']);
    expect((await client.get('/v1/backoffice/users', { token: session.body.access_token })).status).to.equal(403);

    const both = await client.request('PATCH', `/v1/backoffice/users/${invited.id}`, { body: { role: 'viewer', roles: ['viewer'] }, token: admin });
    expect(both.status).to.equal(422);
    const neither = await client.post('/v1/backoffice/users', { email: `no-role-${Date.now()}@example.com`, name: 'No Role' }, { token: admin });
    expect(neither.status).to.equal(422);
    const repeated = await client.post('/v1/backoffice/users', { email: `twice-${Date.now()}@example.com`, name: 'Twice', roles: ['viewer', 'viewer'] }, { token: admin });
    expect(repeated.status).to.equal(422);
  });

  it('staff accounts are for admins only: an approver gets 403', async () => {
    const approver = await loginAs(stack.client, await buildUser({ roles: ['approver'] }));
    const res = await stack.client.get('/v1/backoffice/users', { token: approver });
    expect(res.status).to.equal(403);
    expect(res.body.detail.code).to.equal('scope_insufficient');
  });
});
