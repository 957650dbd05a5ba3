import { expect } from 'chai';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { totpCode, totpStep } from '../../platform/crypto/totp';
import { buildUser } from '../support/factories';
import { ApiClient } from '../support/http';
import { anotherApi, sharedApi, testConfig, testDb } from '../support/stack';
import { productionEnv } from '../support/config';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const codeAt = (offsetSteps = 0) => totpCode(SECRET, totpStep(new Date()) + offsetSteps);

async function withTotp(roles: ('approver' | 'viewer')[] = ['approver']) {
  const user = await buildUser({ roles });
  await testDb()('users').where({ id: user.id }).update({ totp_secret_sealed: new CipherRing(testConfig().payloadKeys).sealText(SECRET) });
  return user;
}

describe('TOTP at sign-in (issue #29)', () => {
  let client: ApiClient;
  before(async () => { client = new ApiClient((await sharedApi()).url); });
  const login = (body: Record<string, unknown>) => client.post('/v1/auth/login', body);

  it('matches RFC 6238\'s SHA-1 test vector', () => {
    // RFC 6238 appendix B: secret "12345678901234567890" (base32 below), T = 59 s, 8 digits 94287082 (6 digits: 287082).
    expect(totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 1)).to.equal('287082');
  });

  it('asks for the code only once the password checked out: a wrong password is invalid_credentials, the right one mfa_required', async () => {
    const user = await withTotp();
    const wrong = await login({ email: user.email, password: 'not-it' });
    expect(wrong.status).to.equal(401);
    expect(wrong.body).to.deep.equal({ detail: 'invalid_credentials' });
    const noCode = await login({ email: user.email, password: user.password });
    expect(noCode.status).to.equal(401);
    expect(noCode.body).to.deep.equal({ detail: 'mfa_required' });
    const ok = await login({ email: user.email, password: user.password, totp: codeAt() });
    expect(ok.status, ok.text).to.equal(200);
  });

  it('a wrong code is invalid_credentials and counts toward the lock; a code is accepted once', async () => {
    const user = await withTotp();
    const wrong = await login({ email: user.email, password: user.password, totp: codeAt(5) });
    expect(wrong.status).to.equal(401);
    expect(wrong.body).to.deep.equal({ detail: 'invalid_credentials' });
    expect((await testDb()('users').where({ id: user.id }).first()).failed_attempts).to.equal(1);
    const code = codeAt();
    expect((await login({ email: user.email, password: user.password, totp: code })).status).to.equal(200);
    const replay = await login({ email: user.email, password: user.password, totp: code });
    expect(replay.status).to.equal(401);
    expect(replay.body).to.deep.equal({ detail: 'invalid_credentials' });
    expect((await login({ email: user.email, password: user.password, totp: codeAt(-1) })).status, 'an older code after a newer one').to.equal(401);
  });

  it('in production an approver without TOTP is refused mfa_enrolment_required; a viewer without it signs in', async () => {
    const prodClient = new ApiClient((await anotherApi(productionEnv())).url);
    const approver = await buildUser({ roles: ['approver'] });
    const refused = await prodClient.post('/v1/auth/login', { email: approver.email, password: approver.password });
    expect(refused.status).to.equal(401);
    expect(refused.body).to.deep.equal({ detail: 'mfa_enrolment_required' });
    const viewer = await buildUser({ roles: ['viewer'] });
    expect((await prodClient.post('/v1/auth/login', { email: viewer.email, password: viewer.password })).status).to.equal(200);
  });
});
