import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { generate } from 'selfsigned';
import { loadConfig } from '../../platform/config/config';
import { minimalEnv, NFE_XML_TEST_ROOT, productionEnv } from '../support/config';

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

  it('keeps the audit checkpoint log in .data outside production', () => {
    expect(loadConfig(minimalEnv()).audit.checkpointLog).to.equal('.data/audit-checkpoints.jsonl');
    expect(loadConfig(minimalEnv({ AUDIT_CHECKPOINT_LOG: '/var/log/audit/checkpoints.jsonl' })).audit.checkpointLog).to.equal('/var/log/audit/checkpoints.jsonl');
  });

  it('waits 20 s on a workflow update unless told otherwise, never under a second', () => {
    expect(loadConfig(minimalEnv()).temporal.updateDeadlineMs).to.equal(20_000);
    expect(loadConfig(minimalEnv({ TEMPORAL_UPDATE_DEADLINE_MS: '4000' })).temporal.updateDeadlineMs).to.equal(4_000);
    expect(() => loadConfig(minimalEnv({ TEMPORAL_UPDATE_DEADLINE_MS: '999' }))).to.throw(/TEMPORAL_UPDATE_DEADLINE_MS must be an integer >= 1000/);
  });

  it('keeps 32 MB of posted ledger transactions\' renderings per api unless told otherwise, none at 0, and refuses a negative size', () => {
    expect(loadConfig(minimalEnv()).ledgerTransactionCache.maxBytes).to.equal(32_000_000);
    expect(loadConfig(minimalEnv({ LEDGER_TRANSACTION_CACHE_BYTES: '0' })).ledgerTransactionCache.maxBytes).to.equal(0);
    expect(() => loadConfig(minimalEnv({ LEDGER_TRANSACTION_CACHE_BYTES: '-1' }))).to.throw(/LEDGER_TRANSACTION_CACHE_BYTES must be an integer >= 0/);
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

  it('samples traces by OpenTelemetry\'s OTEL_TRACES_SAMPLER and its ratio, every request by default, and refuses what it does not know', () => {
    const sampling = (env: Record<string, string>) => loadConfig(minimalEnv(env)).tracing.sampling;
    expect(sampling({})).to.deep.equal({ parentBased: true, ratio: 1 });
    expect(sampling({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })).to.deep.equal({ parentBased: true, ratio: 0.25 });
    expect(sampling({ OTEL_TRACES_SAMPLER: 'traceidratio' })).to.deep.equal({ parentBased: false, ratio: 1 });
    expect(sampling({ OTEL_TRACES_SAMPLER: 'always_off', OTEL_TRACES_SAMPLER_ARG: '0.5' })).to.deep.equal({ parentBased: false, ratio: 0 });
    expect(sampling({ OTEL_TRACES_SAMPLER: 'parentbased_always_on', OTEL_TRACES_SAMPLER_ARG: '0.5' }), 'the ratio is only the ratio samplers\'').to.deep.equal({ parentBased: true, ratio: 1 });
    expect(() => sampling({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).to.throw(/OTEL_TRACES_SAMPLER must be one of always_on, .*got "jaeger_remote"/);
    for (const arg of ['1.5', '-0.1', 'half']) {
      expect(() => sampling({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: arg }), arg).to.throw(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
    }
  });

  it('sends staff e-mail through MAIL_SMTP_URL when set, else to the sandbox\'s mailbox', () => {
    expect(loadConfig(minimalEnv()).mail).to.include({ smtpUrl: null, sandboxUrl: 'http://127.0.0.1:8100/mail' });
    expect(loadConfig(minimalEnv({ MAIL_SMTP_URL: 'smtps://relay.example.com:465', MAIL_FROM: 'ops@example.com' })).mail).to.include({ smtpUrl: 'smtps://relay.example.com:465', from: 'ops@example.com' });
  });

  describe('production fails closed on what weakens it (issue #30)', () => {
    // Everything prod asks for, set well: each case below spoils one setting.
    const prod = (overrides: Record<string, string> = {}) => minimalEnv({ ...productionEnv({ CODEC_CORS_ORIGINS: '' }), ...overrides });
    const secret = (tag: string) => productionEnv()[`${tag === 'e' ? 'ESIGN' : 'PIX'}_CALLBACK_SECRET`];

    it('starts with every setting sound', () => {
      expect(loadConfig(prod()).serviceEnv).to.equal('prod');
    });

    const refusals: [string, Record<string, string>, RegExp][] = [
      ['an http PUBLIC_URL', { PUBLIC_URL: 'http://api.example.com' }, /PUBLIC_URL must be https/],
      ['the audit checkpoint log left in .data', { AUDIT_CHECKPOINT_LOG: '' }, /AUDIT_CHECKPOINT_LOG must name/],
      ['HSTS off', { HSTS_MAX_AGE_SECONDS: '0' }, /HSTS_MAX_AGE_SECONDS/],
      ['HSTS unset', { HSTS_MAX_AGE_SECONDS: '' }, /HSTS_MAX_AGE_SECONDS/],
      ['tokens living more than an hour', { TOKEN_TTL_SECONDS: '86400' }, /TOKEN_TTL_SECONDS above 3600/],
      ['every proxy hop trusted', { TRUST_PROXY: 'true' }, /TRUST_PROXY=true/],
      ['an http codec origin', { CODEC_CORS_ORIGINS: 'https://temporal.example.com,http://ops.example.com' }, /CODEC_CORS_ORIGINS.*https/],
      ['an http Temporal Web as codec origin', { TEMPORAL_WEB_URL: 'http://temporal.example.com' }, /CODEC_CORS_ORIGINS.*https/],
      ['a test-looking e-sign callback secret', { ESIGN_CALLBACK_SECRET: 'esign-callback-secret-for-tests' }, /ESIGN_CALLBACK_SECRET looks like a test value/],
      ['a short PIX callback secret', { PIX_CALLBACK_SECRET: 'Zq8v3Kx0Lm2Np7Rt5Wy9' }, /PIX_CALLBACK_SECRET looks like a test value/],
      ['a repetitive callback secret', { PIX_CALLBACK_SECRET: 'abababababababababababababababababab' }, /PIX_CALLBACK_SECRET looks like a test value/],
      ['one secret for both providers', { PIX_CALLBACK_SECRET: secret('e') }, /must differ/],
      ['a test-looking collection webhook secret', { PIX_COLLECTION_CALLBACK_SECRET: 'collection-secret-for-tests', PIX_COLLECTION_CLIENT_SECRET: secret('c') }, /PIX_COLLECTION_CALLBACK_SECRET looks like a test value/],
      ['the sandbox PSP\'s client secret', { PIX_COLLECTION_CALLBACK_SECRET: secret('w') }, /PIX_COLLECTION_CLIENT_SECRET looks like a test value/],
      ['staff e-mail to the sandbox\'s mailbox', { MAIL_SMTP_URL: '' }, /MAIL_SMTP_URL is required/],
      ['a test-looking escriturador webhook secret', { REGISTRAR_CALLBACK_SECRET: 'registrar-secret-for-tests', REGISTRAR_API_KEY: secret('k') }, /REGISTRAR_CALLBACK_SECRET looks like a test value/],
      ['the sandbox escriturador\'s API key', { REGISTRAR_CALLBACK_SECRET: secret('r') }, /REGISTRAR_API_KEY looks like a test value/],
      ['no root to prove an NF-e XML\'s signer by', { NFE_XML_TRUSTED_ROOTS: '' }, /NFE_XML_TRUSTED_ROOTS .* is required/],
    ];
    for (const [what, overrides, message] of refusals) {
      it(`refuses ${what}`, () => {
        expect(() => loadConfig(prod(overrides))).to.throw(message);
        // The same setting is allowed outside prod (tests and dev run plain http, with test secrets).
        expect(() => loadConfig(minimalEnv(overrides))).to.not.throw();
      });
    }

    it('lets no deployment but dev reach private webhook hosts', () => {
      for (const env of ['prod', 'sandbox']) {
        expect(() => loadConfig(env === 'prod' ? prod({ WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' }) : minimalEnv({ SERVICE_ENV: env, WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' })), env)
          .to.throw(/WEBHOOKS_ALLOW_PRIVATE_HOSTS/);
      }
      expect(loadConfig(minimalEnv({ WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' })).webhooks.allowPrivateHosts).to.equal(true);
    });
  });

  describe('NFE_XML_TRUSTED_ROOTS', () => {
    it('reads a bundle of CA certificates from a file or inline, and none by default', () => {
      expect(loadConfig(minimalEnv()).nfeXml.trustedRoots).to.deep.equal([]);
      const [root] = loadConfig(minimalEnv({ NFE_XML_TRUSTED_ROOTS: NFE_XML_TEST_ROOT })).nfeXml.trustedRoots;
      expect(root.subject).to.equal('CN=NF-e XML throw-away test root');
      const inline = readFileSync(NFE_XML_TEST_ROOT, 'utf8');
      expect(loadConfig(minimalEnv({ NFE_XML_TRUSTED_ROOTS: `${inline}${inline}` })).nfeXml.trustedRoots).to.have.length(2);
    });

    it('refuses to start on a value that is no bundle of CA certificates', () => {
      expect(() => loadConfig(minimalEnv({ NFE_XML_TRUSTED_ROOTS: '/nowhere/roots.pem' }))).to.throw(/NFE_XML_TRUSTED_ROOTS: neither a PEM nor a readable file/);
      expect(() => loadConfig(minimalEnv({ NFE_XML_TRUSTED_ROOTS: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }))).to.throw(/certificate 1 does not parse/);
      expect(() => loadConfig(minimalEnv({ NFE_XML_TRUSTED_ROOTS: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }))).to.throw(/holds no PEM certificate/);
    });

    it('refuses a certificate that is not a CA\'s', async () => {
      const { cert } = await generate([{ name: 'commonName', value: 'an issuer not a CA' }], { keyType: 'ec' });
      expect(() => loadConfig(minimalEnv({ NFE_XML_TRUSTED_ROOTS: cert }))).to.throw(/"CN=an issuer not a CA" is not a CA certificate/);
    });
  });
});
