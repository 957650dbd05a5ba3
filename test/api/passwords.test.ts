import { expect } from 'chai';
import { anotherApi, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser } from '../support/factories';
import { hashPassword, hashSecret, verifySecret } from '../../platform/crypto/passwords';

/** Issue #13: user passwords under OWASP's scrypt parameters, older hashes upgraded on login; client secrets at N=2^14. */
describe('password hashing', function () {
  this.timeout(60_000);
  const storedHash = async (id: string): Promise<string> => (await testDb()('users').where({ id }).first('password_hash')).password_hash;

  it('hashes passwords at N=2^17, r=8, p=1 by default', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).to.match(/^scrypt\$131072\$8\$1\$/);
    expect(await verifySecret('correct horse battery staple', hash)).to.equal(true);
    expect(await verifySecret('wrong', hash)).to.equal(false);
  });

  it('hashes client secrets at N=2^14, r=8, p=1 by default', async () => {
    const hash = await hashSecret('sk_0123456789abcdef01234567');
    expect(hash).to.match(/^scrypt\$16384\$8\$1\$/);
    expect(await verifySecret('sk_0123456789abcdef01234567', hash)).to.equal(true);
  });

  it('re-hashes a weaker password hash at the next successful login, and only then', async () => {
    const client = new ApiClient((await anotherApi({ PASSWORD_SCRYPT_LOG2N: '17' })).url);
    const user = await buildUser();
    const weak = await storedHash(user.id);
    // The factory hashes at the suite's own cost (scripts/lib/mocha.mjs), below the api's 2^17 here.
    expect(weak.split('$')[1]).to.equal(String(2 ** testConfig().passwords.scryptLog2N));

    expect((await client.post('/v1/auth/login', { email: user.email, password: 'not-it' })).status).to.equal(401);
    expect(await storedHash(user.id)).to.equal(weak);

    expect((await client.post('/v1/auth/login', { email: user.email, password: user.password })).status).to.equal(200);
    const upgraded = await storedHash(user.id);
    expect(upgraded).to.match(/^scrypt\$131072\$8\$1\$/);
    expect((await client.post('/v1/auth/login', { email: user.email, password: user.password })).status).to.equal(200);
    expect(await storedHash(user.id)).to.equal(upgraded);
  });
});
