import { expect } from 'chai';
import { sharedApi, prepareDatabase } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator, buildUser, loginAs } from '../support/factories';
import { BACKOFFICE_SCOPES } from '../../domain/principal';

/**
 * Issue #30 item 8: backoffice and codec routes are for staff. A portal user of an originator who
 * was given backoffice scopes by mistake still holds a user token, not a staff one.
 */
describe('staff routes', function () {
  this.timeout(30_000);
  let client: ApiClient;
  const staffRoutes: [string, string, unknown?][] = [
    ['GET', '/v1/backoffice/stuck-operations'],
    ['GET', '/v1/backoffice/originators'],
    ['POST', '/v1/backoffice/codec/decode', { payloads: [] }],
  ];

  before(async () => {
    await prepareDatabase();
    client = new ApiClient((await sharedApi()).url);
  });

  it('refuse a portal user holding every backoffice scope with 403 staff_user_required, and serve a staff user', async () => {
    const { originatorId } = await buildIntegrator(client);
    const portal = await loginAs(client, await buildUser({ kind: 'originator', originatorId, scopes: [...BACKOFFICE_SCOPES] }));
    const staff = await loginAs(client, await buildUser({ kind: 'backoffice' }));
    for (const [method, path, body] of staffRoutes) {
      const refused = await client.request(method, path, { token: portal, body });
      expect(refused.status, `${method} ${path}: ${refused.text}`).to.equal(403);
      expect(refused.body.detail).to.include({ code: 'staff_user_required' });
      const served = await client.request(method, path, { token: staff, body });
      expect(served.status, `${method} ${path}: ${served.text}`).to.equal(200);
    }
  });
});
