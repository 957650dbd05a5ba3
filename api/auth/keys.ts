import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import { SigningKeyRow, SigningKeysRepository, SigningKeyState } from '../../db/repositories/signing-keys';
import type { CipherRing } from '../../platform/crypto/cipher-ring';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

interface RingKey extends SigningKey {
  state: SigningKeyState;
  verifyUntil: Date | null;
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

export function fromPrivatePem(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  return { kid: thumbprint(publicKey), privateKey, publicKey };
}

export function newSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

export interface ReloadPolicy {
  /** At most one reload for unknown `kid`s per this many milliseconds. */
  intervalMs: number;
  now?: () => number;
}

/**
 * The keys this api process signs and verifies with, read from Postgres (sealed there with the
 * payload key ring) so any number of processes share them: the newest `active` key signs; `active`
 * and unexpired `verify-only` keys verify; a `retired` key verifies nothing. `refresh` re-reads
 * them, which every process does as soon as a key changes (NOTIFY, api/server.ts).
 */
export class KeyRing {
  private keys = new Map<string, RingKey>();
  private currentKid = '';
  private lastReloadAt = Number.NEGATIVE_INFINITY;
  private reloading: Promise<void> | null = null;
  private readonly listeners: (() => void)[] = [];

  private constructor(private readonly db: Knex, private readonly cipher: CipherRing, private readonly policy: ReloadPolicy) {}

  static async load(db: Knex, cipher: CipherRing, policy: ReloadPolicy): Promise<KeyRing> {
    const ring = new KeyRing(db, cipher, policy);
    await ring.refresh();
    return ring;
  }

  get current(): SigningKey {
    return this.keys.get(this.currentKid)!;
  }

  /** Called after every refresh: what was verified with a key that is now withdrawn must be forgotten. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  async refresh(): Promise<void> {
    const rows = await new SigningKeysRepository(this.db).all();
    const keys = new Map(rows.map((row) => [row.kid, this.ringKey(row)]));
    const active = rows.find((row) => row.state === 'active');
    if (!active) throw new Error('no active signing key: run npm run keys:rotate');
    this.keys = keys;
    this.currentKid = active.kid;
    for (const listener of this.listeners) listener();
  }

  private ringKey(row: SigningKeyRow): RingKey {
    const known = this.keys.get(row.kid);
    const material = known ?? fromPrivatePem(this.cipher.openText(row.privateSealed));
    return { kid: row.kid, privateKey: material.privateKey, publicKey: material.publicKey, state: row.state, verifyUntil: row.verifyUntil };
  }

  private verifies(key: RingKey): boolean {
    if (key.state === 'active') return true;
    return key.state === 'verify-only' && (key.verifyUntil === null || key.verifyUntil.getTime() > (this.policy.now ?? Date.now)());
  }

  /**
   * A kid we do not know may have been created by another process since we loaded: look once
   * more, but at most once per interval (concurrent askers share that one look), so a flood of
   * tokens with made-up kids costs one key query per interval, not one per request. A kid we know
   * is judged by its state at once.
   */
  async find(kid: string): Promise<SigningKey | undefined> {
    if (!this.keys.has(kid)) {
      const now = (this.policy.now ?? Date.now)();
      if (!this.reloading && now - this.lastReloadAt >= this.policy.intervalMs) {
        this.lastReloadAt = now;
        this.reloading = this.refresh().finally(() => { this.reloading = null; });
      }
      await this.reloading?.catch(() => undefined);
    }
    const key = this.keys.get(kid);
    return key && this.verifies(key) ? key : undefined;
  }

  jwks(): { keys: Jwk[] } {
    return {
      keys: [...this.keys.values()].filter((key) => this.verifies(key)).map((key) => {
        const jwk = key.publicKey.export({ format: 'jwk' });
        return { kty: jwk.kty!, n: jwk.n!, e: jwk.e!, kid: key.kid, alg: 'RS256', use: 'sig' };
      }),
    };
  }
}
