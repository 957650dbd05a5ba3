import { newCipherKeyEntry } from '../../db/crypto/cipher-ring';

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
