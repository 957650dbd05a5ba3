/** Roles that move money or accounts: in production they sign in only with a second factor. */
const ROLES_NEEDING_TOTP = new Set(['approver', 'admin']);

/**
 * What the sign-in still lacks once the password checked out: `mfa_required` when the user has
 * TOTP and sent no code, `mfa_enrolment_required` in production for an approver or admin without
 * TOTP; null when nothing is missing.
 */
export function secondFactorMissing(
  user: { totpSecretSealed: string | null; roles: readonly string[] }, totp: string | undefined, serviceEnv: string,
): 'mfa_required' | 'mfa_enrolment_required' | null {
  if (user.totpSecretSealed !== null) return totp === undefined ? 'mfa_required' : null;
  return serviceEnv === 'prod' && user.roles.some((role) => ROLES_NEEDING_TOTP.has(role)) ? 'mfa_enrolment_required' : null;
}
