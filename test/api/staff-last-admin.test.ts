import { expect } from 'chai';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { anotherApi, sharedApi, testDb } from '../support/stack';

/**
 * An admin cannot disable the last enrolled, enabled admin nor take its admin role: not its own
 * (403 staff_self_change), nor another's when two admins disable each other at once through two
 * api processes (409 last_admin). The suite's database is
 * shared, so every other admin is disabled for the file and restored after it.
 */
describe('staff accounts: the last admin stays', () => {
  let client: ApiClient;
  let second: ApiClient;
  let setAside: string[] = [];

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    second = new ApiClient((await anotherApi()).url);
    setAside = (await testDb()('users').where({ kind: 'backoffice', disabled_at: null }).whereRaw("'admin' = any(roles)").update({ disabled_at: new Date() }, ['id']))
      .map((row: { id: string }) => row.id);
  });
  after(async () => { await testDb()('users').whereIn('id', setAside).update({ disabled_at: null }); });
  // Each test starts with no active admin of its own making left by the one before, whatever its outcome.
  let made: string[] = [];
  afterEach(async () => { await testDb()('users').whereIn('id', made).update({ disabled_at: new Date() }); made = []; });

  const admin = async () => {
    const user = await buildUser({ roles: ['admin'] });
    made.push(user.id);
    return { id: user.id, token: await loginAs(client, user) };
  };
  const change = (api: ApiClient, by: { token: string }, id: string, body: Record<string, unknown>) => api.patch(`/v1/backoffice/users/${id}`, body, { token: by.token });
  const activeAdmins = async (ids: string[]) => (await testDb()('users').whereIn('id', ids).where({ disabled_at: null }).whereRaw("'admin' = any(roles)").select('id')).length;

  it('refuses every change of one\'s own status or roles (403 staff_self_change), so the last admin can neither disable itself nor drop its role', async () => {
    const [x, y] = [await admin(), await admin()];
    expect((await change(client, x, y.id, { status: 'disabled' })).status).to.equal(200);
    for (const body of [{ status: 'disabled' }, { roles: ['approver'] }, { role: 'viewer' }, { roles: ['approver', 'admin'] }]) {
      const own = await change(client, x, x.id, body);
      expect(own.status, own.text).to.equal(403);
      expect(own.body.detail).to.include({ code: 'staff_self_change' });
    }
    expect(await activeAdmins([x.id, y.id])).to.equal(1);

    expect((await change(client, x, y.id, { status: 'active' })).status).to.equal(200);
    const stepDown = await change(client, y, x.id, { role: 'viewer' });
    expect(stepDown.status, stepDown.text).to.equal(200);
    expect(stepDown.body).to.include({ role: 'viewer' });
    expect(await activeAdmins([x.id, y.id])).to.equal(1);
  });

  it('lets one of two admins disabling each other at once through two api processes win; the other is refused (409, or 401 once disabled)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [x, y] = [await admin(), await admin()];
      const answers = await Promise.all([change(client, x, y.id, { status: 'disabled' }), change(second, y, x.id, { status: 'disabled' })]);
      const texts = answers.map((a) => a.text).join(' | ');
      expect(answers.filter((a) => a.status === 200), texts).to.have.length(1);
      // The loser is refused: 409 when it reached the check, or 401 when the winner's change had already disabled its own account.
      const loser = answers.find((a) => a.status !== 200)!;
      expect([409, 401], texts).to.include(loser.status);
      expect(JSON.stringify(loser.body), texts).to.match(loser.status === 409 ? /last_admin/ : /user_disabled/);
      expect(await activeAdmins([x.id, y.id])).to.equal(1);
      await testDb()('users').whereIn('id', made).update({ disabled_at: new Date() });
    }
  });
});
