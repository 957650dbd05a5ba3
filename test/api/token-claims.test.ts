import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { generateKeyPairSync, KeyObject, randomUUID } from 'node:crypto';
import { anotherApi, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildCredential, TestCredential, tokenFor } from '../support/factories';
import { fromPrivatePem, KeyRing, newSigningKeyPem } from '../../api/auth/keys';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { SigningKeysRepository } from '../../db/repositories/signing-keys';

/** Issue #13: tokens name their audience and environment, and unknown kids cannot force key reloads. */
describe('token audience, environment and key reloads', () => {
  let client: ApiClient;
  let privateKey: KeyObject;
  let genuine: string;
  before(async () => {
    ({ privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 }));
    client = new ApiClient((await anotherApi({ JWT_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() })).url);
    genuine = await tokenFor(client, await buildCredential());
  });

  /** The genuine token's claims and header, changed, signed again with the service's own key. */
  const forged = (change: (claims: Record<string, unknown>) => void, header: Partial<jwt.JwtHeader> = {}) => {
    const decoded = jwt.decode(genuine, { complete: true })!;
    const claims = { ...(decoded.payload as Record<string, unknown>) };
    change(claims);
    return jwt.sign(claims, privateKey, { algorithm: 'RS256', header: { ...decoded.header, ...header } });
  };
  const me = (token: string) => client.get('/v1/auth/me', { token });

  /** A token as the service issued them before RFC 9068's form: `typ: JWT`, a fixed issuer name, `scopes` without `scope`. */
  const issuedTheOldWay = (credential: TestCredential, expiresIn: number) => {
    const iat = Math.floor(Date.now() / 1000);
    return jwt.sign({ sub: credential.id, originator_id: credential.originatorId, env: 'sandbox', scopes: credential.scopes, token_type: 'client', iat, exp: iat + expiresIn }, privateKey, {
      algorithm: 'RS256', keyid: jwt.decode(genuine, { complete: true })!.header.kid, issuer: 'receivables-anticipation-api', audience: testConfig().jwt.audience, jwtid: randomUUID(),
    });
  };

  it('issues tokens for this service\'s audience and accepts them', async () => {
    expect((jwt.decode(genuine) as Record<string, unknown>).aud).to.equal(testConfig().jwt.audience);
    expect((await me(forged(() => undefined))).status).to.equal(200);
  });

  it('refuses a token for another audience or with none, even signed with our key', async () => {
    for (const token of [forged((c) => { c.aud = 'another-service'; }), forged((c) => { delete c.aud; })]) {
      const res = await me(token);
      expect(res.status).to.equal(401);
      expect(res.body.detail).to.equal('invalid_token');
    }
  });

  it('issues RFC 9068 access tokens: `typ: at+jwt`, `iss` the PUBLIC_URL the metadata names, the scopes in `scope` beside `scopes`', async () => {
    const { header, payload } = jwt.decode(genuine, { complete: true }) as { header: jwt.JwtHeader; payload: Record<string, unknown> };
    expect(header.typ).to.equal('at+jwt');
    expect(payload.iss).to.equal((await client.get('/.well-known/oauth-authorization-server')).body.issuer);
    expect(payload.scope).to.equal((payload.scopes as string[]).join(' '));
  });

  it('keeps accepting a token issued before that form until it expires, and not after', async () => {
    const credential = await buildCredential({ scopes: ['operation:read', 'stock:read'] });
    const res = await me(issuedTheOldWay(credential, 900));
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ credential_id: credential.id });
    expect(res.body.scopes).to.deep.equal(['operation:read', 'stock:read']);
    expect((await client.get('/v1/operations', { token: issuedTheOldWay(credential, 900) })).status).to.equal(200);
    expect((await me(issuedTheOldWay(credential, -1))).body).to.deep.equal({ detail: 'token_expired' });
  });

  it('refuses a token that mixes the two forms or names another issuer, even signed with our key', async () => {
    const tokens = {
      'at+jwt with the old issuer': forged((c) => { c.iss = 'receivables-anticipation-api'; }),
      'JWT with the new issuer': forged(() => undefined, { typ: 'JWT' }),
      'another issuer': forged((c) => { c.iss = 'https://elsewhere.example'; }),
      'no typ': forged(() => undefined, { typ: undefined }),
      'no issuer': forged((c) => { delete c.iss; }),
    };
    for (const [what, token] of Object.entries(tokens)) {
      const res = await me(token);
      expect(res.status, what).to.equal(401);
      expect(res.body.detail, what).to.equal('invalid_token');
    }
  });

  it('refuses a token whose env is not this deployment\'s', async () => {
    for (const env of ['prod', 'staging', undefined]) {
      const res = await me(forged((c) => { c.env = env; }));
      expect(res.status, String(env)).to.equal(401);
      expect(res.body.detail).to.equal('invalid_token');
    }
  });

  it('reloads keys for an unknown kid at most once per interval', async () => {
    let clock = 1_000_000;
    const cipher = new CipherRing(testConfig().payloadKeys);
    const ring = await KeyRing.load(testDb(), cipher, { intervalMs: 60_000, now: () => clock });
    expect(await ring.find('made-up-kid')).to.equal(undefined);
    // A key another process adds now (verify-only, so it never becomes anyone's signing key).
    const pem = newSigningKeyPem();
    const other = { current: fromPrivatePem(pem) };
    await new SigningKeysRepository(testDb()).insert({
      kid: other.current.kid, privateSealed: cipher.sealText(pem), publicPem: other.current.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      state: 'verify-only', verifyUntil: new Date(Date.now() + 3_600_000),
    });
    try {
      const within = await Promise.all(Array.from({ length: 20 }, () => ring.find(other.current.kid)));
      expect(within.every((key) => key === undefined), 'no reload within the interval').to.equal(true);
      clock += 60_000;
      expect((await ring.find(other.current.kid))?.kid).to.equal(other.current.kid);
    } finally {
      await testDb()('signing_keys').where({ kid: other.current.kid }).delete();
    }
  });
});
