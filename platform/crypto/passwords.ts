import { randomBytes, scrypt as scryptCb, timingSafeEqual, ScryptOptions } from 'node:crypto';

/**
 * Slow hashing of client secrets and user passwords with scrypt (built into Node, so no native
 * dependency to install). The parameters travel inside the hash, so they can be raised: a
 * password under weaker ones is re-hashed on its next successful login.
 *
 * User passwords get OWASP's parameters (N=2^17, r=8, p=1: 128 MiB and a noticeable fraction of
 * a second per hash). Client secrets are 96 random bits, which no dictionary reaches, and are
 * verified on every token exchange, so they keep N=2^14.
 */
export const PASSWORD_LOG2N = 17;
const SECRET_LOG2N = 14;
/** The least `PASSWORD_SCRYPT_LOG2N` a dev or test process takes (platform/config/config.ts); prod refuses below PASSWORD_LOG2N. */
export const LEAST_LOG2N = 10;
const KEY_LENGTH = 32;

const paramsOf = (log2n: number) => ({ N: 2 ** log2n, r: 8, p: 1 });

function scrypt(secret: string, salt: Buffer, params: ScryptOptions & { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs 128·N·r·p bytes; Node's default ceiling (32 MiB) is below N=2^17, so allow twice the need.
  const maxmem = 256 * params.N * params.r * params.p;
  return new Promise((resolve, reject) => {
    scryptCb(secret, salt, KEY_LENGTH, { ...params, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

async function hashWith(secret: string, params: { N: number; r: number; p: number }): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Client secrets (random, high entropy); `log2n` below 14 exists only for the test suite's factories. */
export function hashSecret(secret: string, log2n = SECRET_LOG2N): Promise<string> {
  return hashWith(secret, paramsOf(log2n));
}

/** User passwords; `log2n` below 17 exists only for the test suite's speed (refused in prod). */
export function hashPassword(password: string, log2n = PASSWORD_LOG2N): Promise<string> {
  return hashWith(password, paramsOf(log2n));
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a stored password hash is weaker than the parameters in force. */
export function needsRehash(stored: string, log2n = PASSWORD_LOG2N): boolean {
  const [, n, r, p] = stored.split('$');
  const wanted = paramsOf(log2n);
  return Number(n) < wanted.N || Number(r) < wanted.r || Number(p) < wanted.p;
}

const ZERO_SALT = 'AAAAAAAAAAAAAAAAAAAAAA==';
const ZERO_KEY = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

const decoyAt = (log2n: number): string => {
  const { N, r, p } = paramsOf(log2n);
  return ['scrypt', N, r, p, ZERO_SALT, ZERO_KEY].join('$');
};

/** A hash nobody's secret matches, verified for unknown accounts so they cost the same time. */
export const DECOY_HASH = decoyAt(SECRET_LOG2N);

/** The decoy for logins, at the password parameters in force. */
export function decoyPasswordHash(log2n = PASSWORD_LOG2N): string {
  return decoyAt(log2n);
}
