/**
 * Staff roles, each a set of backoffice scopes. A user holds one or more roles and
 * its token carries the union: an admin approves only if also given `approver`.
 */
export const STAFF_ROLE_SCOPES = {
  viewer: ['backoffice:read'],
  analyst: ['backoffice:read', 'backoffice:act', 'backoffice:operate'],
  approver: ['backoffice:read', 'backoffice:act', 'backoffice:operate', 'backoffice:decide'],
  admin: ['backoffice:read', 'backoffice:admin'],
} as const satisfies Record<string, readonly string[]>;

export type StaffRole = keyof typeof STAFF_ROLE_SCOPES;

export const STAFF_ROLES = Object.keys(STAFF_ROLE_SCOPES) as StaffRole[];

/** The scopes of a set of roles, each once, in the catalogue's order. */
export function scopesOfRoles(roles: readonly StaffRole[]): string[] {
  const granted = new Set(roles.flatMap((role) => STAFF_ROLE_SCOPES[role]));
  return [...new Set(STAFF_ROLES.flatMap((role) => STAFF_ROLE_SCOPES[role]))].filter((scope) => granted.has(scope));
}

/** Roles that decide on money or on who holds power: granting one takes a second admin's confirmation. */
export const PRIVILEGED_ROLES: readonly StaffRole[] = ['approver', 'admin'];

/** Whether going from `before` to `after` adds a privileged role the account does not hold yet. */
export function grantsPrivilege(before: readonly StaffRole[], after: readonly StaffRole[]): boolean {
  return after.some((role) => PRIVILEGED_ROLES.includes(role) && !before.includes(role));
}
