import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newCipherKeyEntry } from '../../platform/crypto/cipher-ring';
import { STATE_CODES } from '../../domain/sefaz/states';

/** A throw-away CA certificate (its key was discarded) standing for the ICP-Brasil roots a production api must be given. */
export const NFE_XML_TEST_ROOT = join(__dirname, 'nfe-xml-root', 'test-root.pem');

/** The least environment `loadConfig` accepts: what every deployment must set (issue #13: no defaults for these). */
export function minimalEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    SERVICE_ENV: 'dev',
    DATABASE_URL: 'postgres://localhost/x',
    PAYLOAD_KEYS: newCipherKeyEntry('t1'),
    ESIGN_CALLBACK_SECRET: 'esign-callback-secret-for-tests',
    PIX_CALLBACK_SECRET: 'pix-callback-secret-for-tests',
    ...overrides,
  };
}

/** Settings production accepts (issue #30: it refuses http, HSTS 0, test-looking secrets...), for tests that start a prod api. */
export function productionEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const secret = (tag: string) => `${tag}-Zq8v3Kx0Lm2Np7Rt5Wy9Bc4Df6Gh1Jk`;
  return {
    SERVICE_ENV: 'prod', PUBLIC_URL: 'https://api.example.com', HSTS_MAX_AGE_SECONDS: '31536000', CODEC_CORS_ORIGINS: 'https://temporal.example.com',
    ESIGN_CALLBACK_SECRET: secret('e'), PIX_CALLBACK_SECRET: secret('p'), PASSWORD_SCRYPT_LOG2N: '17',
    // Collection by PIX off unless a test turns it on with a real-looking client secret.
    // The escriturador's webhooks off too, unless a test gives a real-looking API key with the secret.
    REGISTRAR_CALLBACK_SECRET: '',
    PIX_COLLECTION_CALLBACK_SECRET: '', MAIL_SMTP_URL: 'smtp://relay.example.com:587', AUDIT_CHECKPOINT_LOG: join(tmpdir(), 'audit-checkpoints-prod-test.jsonl'),
    // Every state to one authorizer: enough for a prod api that never reaches SEFAZ in the test.
    SEFAZ_AUTHORIZERS: `${STATE_CODES.join(',')}=https://nfe.sefaz.example.gov.br/ws/NFeConsultaProtocolo4.asmx`,
    SEFAZ_DISTRIBUTION_URL: 'https://www1.nfe.example.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
    NFE_XML_TRUSTED_ROOTS: NFE_XML_TEST_ROOT, ...overrides,
  };
}
