import { randomBytes } from 'node:crypto';

const ISPB = '99999008';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * `E` (a PIX) or `D` (a refund) + the sandbox bank's ISPB + yyyyMMddHHmm + 11 alphanumerics, as
 * the SPI shapes them (32 characters).
 */
export function endToEndId(at: Date, prefix = 'E'): string {
  const stamp = at.toISOString().replace(/\D/g, '').slice(0, 12);
  const tail = [...randomBytes(11)].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('');
  return `${prefix}${ISPB}${stamp}${tail}`;
}
