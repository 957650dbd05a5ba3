import { expect } from 'chai';
import { DEV_SEED } from '../../db/seeds/dev-seed';
import { scopesOfRoles } from '../../domain/staff-roles';
import { totpCode, totpStep } from '../../platform/crypto/totp';
import { buildUser, loginAs } from '../support/factories';
import { createDirect, directBody, operationsStack } from '../support/operations';
import { untilStatus } from '../support/lifecycle';
import { receivable } from '../support/simulate';

const waitingBody = () => directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] });

describe('staff roles (issue #29)', () => {
  const stack = operationsStack();

  it('a viewer reads the queue and the operation page but is refused every decision with 403 scope_insufficient', async () => {
    const { client, token } = stack;
    const viewer = await loginAs(client, await buildUser({ roles: ['viewer'] }));
    const created = await createDirect(client, token, waitingBody());
    const id = created.body.id;
    await untilStatus(client, token, id, 'WAITING_APPROVAL');
    expect((await client.get('/v1/backoffice/approval-queue', { token: viewer })).status).to.equal(200);
    expect((await client.get(`/v1/backoffice/operations/${id}`, { token: viewer })).status).to.equal(200);
    const approve = await client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token: viewer });
    expect(approve.status).to.equal(403);
    expect(approve.body.detail).to.include({ code: 'scope_insufficient' });
    expect(approve.body.detail.required).to.deep.equal(['backoffice:decide']);
    const retry = await client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: viewer });
    expect(retry.status).to.equal(403);
    expect(retry.body.detail.accepted_alternatives).to.deep.equal([['backoffice:act'], ['backoffice:decide']]);
    const decode = await client.post('/v1/backoffice/codec/decode', { payloads: [] }, { token: viewer });
    expect(decode.status).to.equal(403);
    expect((await client.get(`/v1/operations/${id}`, { token })).body.lifecycle_status).to.equal('WAITING_APPROVAL');
  });

  it('an analyst may retry a disbursement (answered by the state, 409) but not approve; an admin approves nothing', async () => {
    const { client, token } = stack;
    const analyst = await loginAs(client, await buildUser({ roles: ['analyst'] }));
    const admin = await loginAs(client, await buildUser({ roles: ['admin'] }));
    const id = (await createDirect(client, token, waitingBody())).body.id;
    await untilStatus(client, token, id, 'WAITING_APPROVAL');
    const retry = await client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: analyst });
    expect(retry.status).to.equal(409);
    for (const who of [analyst, admin]) {
      const approve = await client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token: who });
      expect(approve.status).to.equal(403);
      expect(approve.body.detail.code).to.equal('scope_insufficient');
    }
    expect((await client.get(`/v1/operations/${id}`, { token })).body.lifecycle_status).to.equal('WAITING_APPROVAL');
  });

  it('an admin given approver too approves', async () => {
    const { client, token } = stack;
    const both = await loginAs(client, await buildUser({ roles: ['admin', 'approver'] }));
    const id = (await createDirect(client, token, waitingBody())).body.id;
    await untilStatus(client, token, id, 'WAITING_APPROVAL');
    const approve = await client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token: both });
    expect(approve.status, approve.text).to.equal(200);
  });

  it('login answers the roles; the dev seed keeps backoffice@example.com an approver and adds an admin', async () => {
    const { client } = stack;
    const approver = await client.post('/v1/auth/login', { email: DEV_SEED.backoffice.email, password: DEV_SEED.backoffice.password });
    expect(approver.status, approver.text).to.equal(200);
    expect(approver.body.user.roles).to.deep.equal(['approver']);
    expect(approver.body.scopes).to.have.members(scopesOfRoles(['approver']));
    const withoutCode = await client.post('/v1/auth/login', { email: DEV_SEED.admin.email, password: DEV_SEED.admin.password });
    expect(withoutCode.status).to.equal(401);
    expect(withoutCode.body).to.deep.equal({ detail: 'mfa_required' });
    const totp = totpCode(DEV_SEED.admin.totpSecret, totpStep(new Date()));
    const admin = await client.post('/v1/auth/login', { email: DEV_SEED.admin.email, password: DEV_SEED.admin.password, totp });
    expect(admin.status, admin.text).to.equal(200);
    expect(admin.body.user.roles).to.deep.equal(['admin']);
    expect(admin.body.scopes).to.include('backoffice:admin').and.not.include('backoffice:decide');
  });
});
