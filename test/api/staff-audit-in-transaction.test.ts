import { expect } from 'chai';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { enrolmentTokenOf, secondAdmin } from '../support/staff';
import { sharedApi, testDb } from '../support/stack';

/**
 * A staff account change and its audit row commit together or not at all: with the audit insert
 * made to fail (a trigger), invite, change, grant confirmation and enrolment all leave the account
 * as it was, and the same requests succeed, each with its row, once the trigger is gone. A sign-in's row commits with
 * what the success records.
 */
describe('staff account changes: the audit row is written in the change\'s transaction', () => {
  let client: ApiClient;
  let admin: { id: string; token: string };

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    const user = await buildUser({ roles: ['admin'] });
    admin = { id: user.id, token: await loginAs(client, user) };
  });

  async function withAuditFailing<T>(body: () => Promise<T>): Promise<T> {
    await testDb().raw(`create function refuse_staff_audit() returns trigger language plpgsql as $$
      begin if new.action like 'user.%' or new.action like 'role_grant.%' then raise exception 'audit insert refused by the test'; end if; return new; end $$`);
    await testDb().raw('create trigger refuse_staff_audit before insert on audit_events for each row execute function refuse_staff_audit()');
    try {
      return await body();
    } finally {
      await testDb().raw('drop trigger refuse_staff_audit on audit_events');
      await testDb().raw('drop function refuse_staff_audit()');
    }
  }
  const rowsOf = async (action: string, targetId: string) => (await testDb()('audit_events').where({ action, target_id: targetId })).length;
  const account = (id: string) => testDb()('users').where({ id }).first('roles', 'disabled_at', 'enrolled_at', 'changed_by');

  it('an invitation whose row cannot be written leaves no account; written, it leaves the account and one row', async () => {
    const email = `rolled-back-${Date.now()}@example.com`;
    const refused = await withAuditFailing(() => client.post('/v1/backoffice/users', { email, name: 'Rolled Back', role: 'viewer' }, { token: admin.token }));
    expect(refused.status, refused.text).to.equal(500);
    expect(await testDb()('users').where({ email }).first()).to.equal(undefined);

    const invited = await client.post('/v1/backoffice/users', { email, name: 'Rolled Back', role: 'viewer' }, { token: admin.token });
    expect(invited.status, invited.text).to.equal(201);
    expect(await rowsOf('user.invite', invited.body.id)).to.equal(1);
  });

  it('a change, a grant\'s confirmation and an enrolment whose rows cannot be written change nothing', async () => {
    const email = `kept-${Date.now()}@example.com`;
    const invited = await client.post('/v1/backoffice/users', { email, name: 'Kept', roles: ['viewer', 'approver'] }, { token: admin.token });
    expect(invited.status, invited.text).to.equal(202);
    const { id } = invited.body;
    const before = await account(id);

    const disabling = await withAuditFailing(() => client.patch(`/v1/backoffice/users/${id}`, { status: 'disabled' }, { token: admin.token }));
    expect(disabling.status, disabling.text).to.equal(500);
    const other = await secondAdmin(client);
    const confirming = await withAuditFailing(() => client.post(`/v1/backoffice/role-grants/${invited.body.pending_grant.id}/confirm`, undefined, { token: other.token }));
    expect(confirming.status, confirming.text).to.equal(500);
    const token = await enrolmentTokenOf(email);
    const enrolling = await withAuditFailing(() => client.post('/v1/auth/enrol', { enrolment_token: token, password: 'a-long-enough-password' }));
    expect(enrolling.status, enrolling.text).to.equal(500);
    expect(await account(id)).to.deep.equal(before);
    expect((await testDb()('staff_role_grants').where({ id: invited.body.pending_grant.id }).first()).status).to.equal('pending');

    expect((await client.post(`/v1/backoffice/role-grants/${invited.body.pending_grant.id}/confirm`, undefined, { token: other.token })).status).to.equal(200);
    expect((await client.post('/v1/auth/enrol', { enrolment_token: token, password: 'a-long-enough-password' })).status).to.equal(200);
    expect((await client.patch(`/v1/backoffice/users/${id}`, { status: 'disabled' }, { token: admin.token })).status).to.equal(200);
    expect(await account(id)).to.include({ changed_by: admin.id });
    for (const action of ['user.invite', 'role_grant.request', 'role_grant.confirm', 'user.enrol', 'user.change']) expect(await rowsOf(action, id), action).to.equal(1);
  });

  it('a sign-in whose row cannot be written gives no token and records nothing of the success; written, the address it came from and its row commit together', async () => {
    const user = await buildUser({ roles: ['viewer'] });
    const addresses = () => testDb()('login_addresses').where({ user_id: user.id });
    await testDb().raw(`create function refuse_login_audit() returns trigger language plpgsql as $$
      begin if new.action = 'auth.login' then raise exception 'audit insert refused by the test'; end if; return new; end $$`);
    await testDb().raw('create trigger refuse_login_audit before insert on audit_events for each row execute function refuse_login_audit()');
    try {
      const refused = await client.post('/v1/auth/login', { email: user.email, password: user.password });
      expect(refused.status, refused.text).to.equal(500);
      expect(refused.body.access_token).to.equal(undefined);
      expect(await addresses()).to.deep.equal([]);
    } finally {
      await testDb().raw('drop trigger refuse_login_audit on audit_events');
      await testDb().raw('drop function refuse_login_audit()');
    }
    const signedIn = await client.post('/v1/auth/login', { email: user.email, password: user.password });
    expect(signedIn.status, signedIn.text).to.equal(200);
    expect(await addresses()).to.have.length(1);
    expect(await rowsOf('auth.login', user.id)).to.equal(1);
  });
});
