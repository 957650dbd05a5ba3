import type { Knex } from 'knex';
import { SigningKeysRepository } from '../../db/repositories/signing-keys';
import type { CipherRing } from '../../platform/crypto/cipher-ring';
import { fromPrivatePem, newSigningKeyPem } from './keys';

/**
 * How long a key keeps verifying after it stops signing: the life of the last token it signed,
 * plus a minute for every api process to hear of the change (a process that has not yet may still
 * sign with it meanwhile).
 */
export const overlapSeconds = (tokenTtlSeconds: number) => tokenTtlSeconds + 60;

export interface Rotation {
  activated: string;
  /** Keys that stopped signing and verify until `verifyUntil`. */
  verifyOnly: string[];
  verifyUntil: Date | null;
  retired: string[];
}

/**
 * Seals `pem` and makes it the active key; the keys active until now keep verifying until
 * `verifyUntil`, or are retired at once when it is null (a key that leaked).
 */
async function install(keys: SigningKeysRepository, cipher: CipherRing, pem: string, verifyUntil: Date | null, now: Date): Promise<Rotation> {
  const key = fromPrivatePem(pem);
  const retired = await keys.expiredVerifyOnly(now);
  const previous = await keys.demoteActive(verifyUntil ?? now);
  if (verifyUntil === null) retired.push(...previous);
  await keys.retire(retired, now);
  await keys.insert({
    kid: key.kid, privateSealed: cipher.sealText(pem), publicPem: key.publicKey.export({ format: 'pem', type: 'spki' }).toString(), state: 'active',
  });
  return { activated: key.kid, verifyOnly: verifyUntil ? previous : [], verifyUntil, retired };
}

/**
 * Makes sure an active key exists before the api starts: `JWT_PRIVATE_KEY`, when configured and
 * not yet known, is imported (sealed) and becomes the active key, the previous one verifying its
 * tokens until they expire; otherwise the first process generates one. An advisory lock makes
 * concurrent starts do it once.
 */
export async function ensureActiveKey(db: Knex, cipher: CipherRing, configuredPem: string | null, tokenTtlSeconds: number, now = new Date()): Promise<void> {
  await db.transaction(async (trx) => {
    const keys = new SigningKeysRepository(trx);
    await keys.lockForChange();
    const existing = await keys.all();
    if (configuredPem) {
      const kid = fromPrivatePem(configuredPem).kid;
      if (!existing.some((row) => row.kid === kid)) await install(keys, cipher, configuredPem, new Date(now.getTime() + overlapSeconds(tokenTtlSeconds) * 1000), now);
      return;
    }
    if (!existing.some((row) => row.state === 'active')) await install(keys, cipher, newSigningKeyPem(), null, now);
  });
}

/**
 * `npm run keys:rotate`: a new key signs from now on; the previous one verifies the tokens it
 * signed until they expire, or, with `retirePrevious` (it leaked), verifies nothing from now on.
 * Verify-only keys past their time are retired on the way.
 */
export async function rotateSigningKey(db: Knex, cipher: CipherRing, options: { tokenTtlSeconds: number; retirePrevious: boolean; now?: Date }): Promise<Rotation> {
  const now = options.now ?? new Date();
  return db.transaction(async (trx) => {
    const keys = new SigningKeysRepository(trx);
    await keys.lockForChange();
    const verifyUntil = options.retirePrevious ? null : new Date(now.getTime() + overlapSeconds(options.tokenTtlSeconds) * 1000);
    return install(keys, cipher, newSigningKeyPem(), verifyUntil, now);
  });
}
