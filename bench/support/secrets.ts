import { randomBytes } from 'node:crypto';
import { newCipherKeyEntry } from '../../platform/crypto/cipher-ring';

/** The secrets the services refuse to start without, fresh for one bench process (the environment's win). */
const fresh = {
  PAYLOAD_KEYS: newCipherKeyEntry('bench1'),
  ESIGN_CALLBACK_SECRET: randomBytes(24).toString('base64url'),
  PIX_CALLBACK_SECRET: randomBytes(24).toString('base64url'),
};

export function benchSecrets(env: Record<string, string | undefined> = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(fresh).map(([name, value]) => [name, env[name] || value]));
}
