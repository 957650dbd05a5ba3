/**
 * Why a TLS handshake with a webhook receiver failed, in the words a delivery record gives:
 * Node's certificate verification codes, grouped by what the receiver's owner has to fix.
 */
const TLS_FAILURES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self_signed_certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self_signed_certificate_in_chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unknown_certificate_authority',
  UNABLE_TO_GET_ISSUER_CERT: 'unknown_certificate_authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknown_certificate_authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'hostname_mismatch',
  CERT_HAS_EXPIRED: 'certificate_expired',
  CERT_NOT_YET_VALID: 'certificate_not_yet_valid',
  CERT_REVOKED: 'certificate_revoked',
};

/** Every reason a delivery's `error` may name for a failed handshake; `tls_error` for one Node does not name (a protocol or cipher failure). */
export const TLS_FAILURE_CODES = [...new Set(Object.values(TLS_FAILURES)), 'tls_error'];

/** The reason for a TLS failure's `code`, or null when the code is no TLS failure. */
export function tlsFailure(code: string): string | null {
  if (TLS_FAILURES[code]) return TLS_FAILURES[code];
  return /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) ? 'tls_error' : null;
}
