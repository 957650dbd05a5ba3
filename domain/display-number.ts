import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `OP-<8>-<8>`: the business date, then 8 random characters an analyst can read over the phone. */
export function displayNumber(businessDate: string): string {
  const random = [...randomBytes(8)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `OP-${businessDate.replaceAll('-', '')}-${random}`;
}
