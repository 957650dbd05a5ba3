import { expect } from 'chai';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { totpCode, totpStep } from '../../platform/crypto/totp';
import { testConfig, testDb } from '../support/stack';
import { buildUser } from '../support/factories';
import { proxiedApi } from '../support/proxied-api';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/**
 * Failures from elsewhere cannot keep a staff member out: with the production budgets (20 an hour
 * per account and address, 200 from unfamiliar addresses) and the contract's lockout (5 failures),
 * someone failing as the account from two other addresses spends their budget and locks it there,
 * and the owner still signs in with password and TOTP from an address it signed in from before.
 */
describe('logins: failures from elsewhere do not keep the owner out', function () {
  this.timeout(60_000);
  const proxied = proxiedApi({
    RATE_LIMIT_LOGIN_RPM: '100', RATE_LIMIT_LOGIN_ACCOUNT_PER_HOUR: '20', RATE_LIMIT_LOGIN_ACCOUNT_CEILING_PER_HOUR: '200', LOGIN_MAX_FAILURES: '5', LOGIN_LOCK_MINUTES: '30',
  });

  it('locks and limits the addresses that failed, not the owner\'s own', async () => {
    const owner = await buildUser({ roles: ['approver'] });
    await testDb()('users').where({ id: owner.id }).update({ totp_secret_sealed: new CipherRing(testConfig().payloadKeys).sealText(SECRET) });
    const login = (address: string, password: string, totp?: string) =>
      proxied.client.post('/v1/auth/login', { email: owner.email, password, ...(totp ? { totp } : {}) }, { headers: { 'X-Forwarded-For': address } });
    const home = '198.51.100.10';
    expect((await login(home, owner.password, totpCode(SECRET, totpStep(new Date()) - 1))).status).to.equal(200);

    const answers: number[] = [];
    for (const address of ['203.0.113.7', '203.0.113.8']) for (let i = 0; i < 21; i += 1) answers.push((await login(address, 'wrong-guess')).status);
    expect(answers.filter((status) => status === 429)).to.have.length(2);
    expect(answers.filter((status) => status === 401)).to.have.length(40);
    const code = totpCode(SECRET, totpStep(new Date()));
    const locked = await login('203.0.113.9', owner.password, code);
    expect(locked.status, 'the right password and code from elsewhere meet the lock').to.equal(423);

    const own = await login(home, owner.password, code);
    expect(own.status, own.text).to.equal(200);
    expect(own.body.access_token).to.be.a('string');
  });
});
