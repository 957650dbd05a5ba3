import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import { SigningKeysRepository } from '../../db/repositories/signing-keys';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface Jwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

function thumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  // RFC 7638 member order for RSA keys.
  return createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).digest('base64url').slice(0, 16);
}

function fromPrivatePem(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  return { kid: thumbprint(publicKey), privateKey, publicKey };
}

/**
 * The keys every api process signs and verifies with. Production supplies the private key by
 * configuration; elsewhere the first process generates one and keeps it in Postgres, so that any
 * number of api processes share it (an advisory lock makes the first generation happen once).
 */
export interface ReloadPolicy {
  /** At most one reload for unknown `kid`s per this many milliseconds. */
  intervalMs: number;
  now?: () => number;
}

export class KeyRing {
  private lastReloadAt = Number.NEGATIVE_INFINITY;
  private reloading: Promise<void> | null = null;

  private constructor(
    readonly current: SigningKey,
    private readonly byKid: Map<string, SigningKey>,
    private readonly reload: () => Promise<KeyRing>,
    private readonly policy: ReloadPolicy,
  ) {}

  static async load(db: Knex, configuredPem: string | null, policy: ReloadPolicy): Promise<KeyRing> {
    const load = () => KeyRing.load(db, configuredPem, policy);
    if (configuredPem) {
      const key = fromPrivatePem(configuredPem);
      return new KeyRing(key, new Map([[key.kid, key]]), load, policy);
    }
    const rows = await db.transaction(async (trx) => {
      const signingKeys = new SigningKeysRepository(trx);
      await signingKeys.lockForCreation();
      const existing = await signingKeys.all();
      if (existing.some((row) => row.retiredAt === null)) return existing;
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const key = fromPrivatePem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
      await signingKeys.insert({
        kid: key.kid,
        privatePem: key.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        publicPem: key.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      });
      return signingKeys.all();
    });
    const keys = rows.map((row) => ({ ...fromPrivatePem(row.privatePem), retired: row.retiredAt !== null }));
    const current = keys.find((key) => !key.retired)!;
    return new KeyRing(current, new Map(keys.map((key) => [key.kid, key])), load, policy);
  }

  /**
   * A kid we do not know may have been created by another process since we loaded: look once
   * more, but at most once per interval (concurrent askers share that one look), so a flood of
   * tokens with made-up kids costs one key query per interval, not one per request.
   */
  async find(kid: string): Promise<SigningKey | undefined> {
    const known = this.byKid.get(kid);
    if (known) return known;
    const now = (this.policy.now ?? Date.now)();
    if (!this.reloading && now - this.lastReloadAt >= this.policy.intervalMs) {
      this.lastReloadAt = now;
      this.reloading = this.reload()
        .then((fresh) => { fresh.byKid.forEach((key, id) => this.byKid.set(id, key)); })
        .finally(() => { this.reloading = null; });
    }
    await this.reloading?.catch(() => undefined);
    return this.byKid.get(kid);
  }

  jwks(): { keys: Jwk[] } {
    return {
      keys: [...this.byKid.values()].map((key) => {
        const jwk = key.publicKey.export({ format: 'jwk' });
        return { kty: jwk.kty!, n: jwk.n!, e: jwk.e!, kid: key.kid, alg: 'RS256', use: 'sig' };
      }),
    };
  }
}
