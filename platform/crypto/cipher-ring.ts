import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The key ring every secret at rest and every Temporal payload is sealed with: AES-256-GCM,
 * keys named by id. The first key seals; every key opens, so a rotated-out key still opens
 * what it sealed until nothing references it (docs/decisions.md, "Key ring").
 */
export interface CipherKey {
  id: string;
  key: Buffer;
}

export class CipherKeyError extends Error {}

const KEY_ID = /^[A-Za-z0-9_.-]{1,32}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `id:base64key,...`, newest first; each key exactly 32 bytes, ids unique. */
export function parseCipherKeys(raw: string): CipherKey[] {
  const keys = raw.split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
    const colon = part.indexOf(':');
    const id = colon > 0 ? part.slice(0, colon) : '';
    if (!KEY_ID.test(id)) throw new CipherKeyError('each key is id:base64key, the id 1-32 of [A-Za-z0-9_.-]');
    const key = Buffer.from(part.slice(colon + 1), 'base64');
    if (key.length !== 32) throw new CipherKeyError(`key "${id}" must be 32 bytes of base64 (AES-256), got ${key.length}`);
    return { id, key };
  });
  if (keys.length === 0) throw new CipherKeyError('at least one key is required');
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new CipherKeyError('key ids must be unique');
  return keys;
}

/** A fresh ring entry in the configuration format (dev and test scripts, rotation). */
export function newCipherKeyEntry(id: string): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}

export interface Sealed {
  keyId: string;
  /** iv | tag | ciphertext */
  blob: Buffer;
}

export class CipherRing {
  private readonly byId: Map<string, Buffer>;

  constructor(private readonly keys: CipherKey[]) {
    if (keys.length === 0) throw new CipherKeyError('at least one key is required');
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  get currentKeyId(): string {
    return this.keys[0].id;
  }

  /** The key id is authenticated with the data, so a blob cannot be relabelled to another key. */
  seal(plain: Uint8Array): Sealed {
    const { id, key } = this.keys[0];
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(id));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return { keyId: id, blob: Buffer.concat([iv, cipher.getAuthTag(), body]) };
  }

  open(sealed: Sealed): Buffer {
    const key = this.byId.get(sealed.keyId);
    if (!key) throw new CipherKeyError(`unknown key id "${sealed.keyId}": it is not in the key ring`);
    if (sealed.blob.length < IV_BYTES + TAG_BYTES) throw new CipherKeyError('sealed data too short');
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.blob.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(sealed.keyId));
    decipher.setAuthTag(sealed.blob.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.blob.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new CipherKeyError(`sealed data does not authenticate with key "${sealed.keyId}"`);
    }
  }

  /** Text at rest: `enc:v1:<key id>:<base64>`. */
  sealText(plain: string): string {
    const { keyId, blob } = this.seal(Buffer.from(plain, 'utf8'));
    return `${TEXT_PREFIX}${keyId}:${blob.toString('base64')}`;
  }

  openText(stored: string): string {
    if (!isSealedText(stored)) throw new CipherKeyError('not a sealed value');
    const rest = stored.slice(TEXT_PREFIX.length);
    const colon = rest.indexOf(':');
    return this.open({ keyId: rest.slice(0, colon), blob: Buffer.from(rest.slice(colon + 1), 'base64') }).toString('utf8');
  }

  /** Whether a stored value was sealed with a key other than the current one (rotation re-seals it). */
  sealedWithOlderKey(stored: string): boolean {
    return !stored.startsWith(`${TEXT_PREFIX}${this.currentKeyId}:`);
  }
}

const TEXT_PREFIX = 'enc:v1:';

export function isSealedText(value: string): boolean {
  return value.startsWith(TEXT_PREFIX);
}
