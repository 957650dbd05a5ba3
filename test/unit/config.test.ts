import { expect } from 'chai';
import { loadConfig } from '../../db/config';
import { minimalEnv } from '../support/config';

/** Issue #13: production fails closed; what protects data has no default. */
describe('configuration fails closed', () => {
  const without = (name: string) => Object.fromEntries(Object.entries(minimalEnv()).filter(([key]) => key !== name));

  it('refuses to load without SERVICE_ENV, the payload key ring or a provider callback secret', () => {
    for (const name of ['SERVICE_ENV', 'PAYLOAD_KEYS', 'ESIGN_CALLBACK_SECRET', 'PIX_CALLBACK_SECRET']) {
      expect(() => loadConfig(without(name)), name).to.throw(new RegExp(`${name} is required`));
    }
  });

  it('hashes passwords at scrypt N=2^17 unless told otherwise, and prod refuses less', () => {
    expect(loadConfig(minimalEnv()).passwords.scryptLog2N).to.equal(17);
    expect(() => loadConfig(minimalEnv({ SERVICE_ENV: 'prod', JWT_PRIVATE_KEY: 'pem', PASSWORD_SCRYPT_LOG2N: '14' }))).to.throw(/PASSWORD_SCRYPT_LOG2N below 17 is refused/);
  });

  it('reads the key ring newest first and refuses malformed keys', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig(minimalEnv({ PAYLOAD_KEYS: `k2:${key}, k1:${key}` })).payloadKeys.map((k) => k.id)).to.deep.equal(['k2', 'k1']);
    expect(() => loadConfig(minimalEnv({ PAYLOAD_KEYS: `k1:${Buffer.alloc(16).toString('base64')}` }))).to.throw(/PAYLOAD_KEYS: key "k1" must be 32 bytes/);
    expect(() => loadConfig(minimalEnv({ PAYLOAD_KEYS: `k1:${key},k1:${key}` }))).to.throw(/PAYLOAD_KEYS: key ids must be unique/);
    expect(() => loadConfig(minimalEnv({ PAYLOAD_KEYS: key }))).to.throw(/PAYLOAD_KEYS: each key is id:base64key/);
  });

  it('takes the codec endpoint\'s CORS origins from CODEC_CORS_ORIGINS, else from TEMPORAL_WEB_URL', () => {
    expect(loadConfig(minimalEnv({ TEMPORAL_WEB_URL: 'http://127.0.0.1:8233/namespaces' })).codec.corsOrigins).to.deep.equal(['http://127.0.0.1:8233']);
    expect(loadConfig(minimalEnv({ CODEC_CORS_ORIGINS: 'https://temporal.example.com, https://ops.example.com/' })).codec.corsOrigins)
      .to.deep.equal(['https://temporal.example.com', 'https://ops.example.com']);
  });
});
