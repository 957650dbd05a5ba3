import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { hashPassword } from '../../platform/crypto/passwords';
import { base32Encode } from '../../platform/crypto/totp';
import { StaffUserRow, StaffUsersRepository } from '../../db/repositories/staff-users';
import { Conflict, NotFound, RuleViolation } from '../../domain/errors';
import { scopesOfRoles, StaffRole } from '../../domain/staff-roles';
import type { Schema } from '../openapi/contract-types';

const ENROLMENT_HOURS = 72;
export const MIN_PASSWORD_LENGTH = 12;
const ISSUER = 'Receivables Backoffice';

/** One role or several, as the API takes them (the document allows one of the two). */
type RoleChoice = { role?: StaffRole; roles?: StaffRole[] };
const rolesOf = (choice: RoleChoice): StaffRole[] | undefined => choice.roles ?? (choice.role ? [choice.role] : undefined);

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export function presentStaffUser(user: StaffUserRow): Schema<'StaffUser'> {
  return {
    id: user.id, email: user.email, name: user.name, role: user.roles[0] ?? null, roles: user.roles,
    status: user.disabledAt ? 'disabled' : user.invitationPending ? 'invited' : 'active',
    totp_enrolled: user.totpSecretSealed !== null, created_at: user.createdAt.toISOString(),
  };
}

/** Staff accounts: invitation, enrolment with a password and TOTP, role and status changes. */
export class StaffService {
  private readonly ring: CipherRing;

  constructor(private readonly config: { payloadKeys: ConstructorParameters<typeof CipherRing>[0]; passwords: { scryptLog2N: number } }) {
    this.ring = new CipherRing(config.payloadKeys);
  }

  async invite(db: Knex, input: { email: string; name: string } & RoleChoice, now: Date) {
    const users = new StaffUsersRepository(db);
    if (await users.emailTaken(input.email)) throw new Conflict({ code: 'user_email_taken', message: `A user with e-mail ${input.email} exists already` });
    const token = randomBytes(32).toString('base64url');
    // Nobody knows this password: the account signs in only after enrolment sets one.
    const unusable = await hashPassword(randomBytes(32).toString('base64url'), this.config.passwords.scryptLog2N);
    const roles = rolesOf(input)!;
    const user = await users.invite({
      id: uuidv7(), email: input.email, name: input.name, roles, scopes: scopesOfRoles(roles),
      passwordHash: unusable, tokenHash: tokenHash(token), expiresAt: new Date(now.getTime() + ENROLMENT_HOURS * 3_600_000),
    });
    return { ...presentStaffUser(user), enrolment_token: token };
  }

  async enrol(db: Knex, input: { enrolmentToken: string; password: string }, now: Date) {
    if (input.password.length < MIN_PASSWORD_LENGTH) {
      throw new RuleViolation({ code: 'password_too_weak', message: `The password needs at least ${MIN_PASSWORD_LENGTH} characters` });
    }
    const users = new StaffUsersRepository(db);
    const user = await users.lockByEnrolmentToken(tokenHash(input.enrolmentToken), now);
    if (!user) throw new NotFound('enrolment_token_invalid');
    const secret = base32Encode(randomBytes(20));
    await users.completeEnrolment(user.id, await hashPassword(input.password, this.config.passwords.scryptLog2N), this.ring.sealText(secret), now);
    const label = encodeURIComponent(`${ISSUER}:${user.email}`);
    return {
      user: presentStaffUser({ ...user, invitationPending: false, totpSecretSealed: 'set' }),
      totp_secret: secret,
      otpauth_uri: `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(ISSUER)}&algorithm=SHA1&digits=6&period=30`,
    };
  }

  async change(db: Knex, id: string, changes: RoleChoice & { status?: 'active' | 'disabled' }, now: Date) {
    const users = new StaffUsersRepository(db);
    const before = await users.byId(id);
    if (!before) throw new NotFound('user_not_found');
    const roles = rolesOf(changes);
    const staysAdmin = (roles ?? before.roles).includes('admin') && (changes.status ?? (before.disabledAt ? 'disabled' : 'active')) === 'active';
    if (!staysAdmin) {
      const admins = await users.lockActiveAdmins();
      if (admins.length === 1 && admins[0] === id) {
        throw new Conflict({ code: 'last_admin', message: 'This is the last active admin: make another account admin before disabling it or taking its admin role' });
      }
    }
    await users.update(id, {
      ...(roles ? { roles, scopes: scopesOfRoles(roles) } : {}),
      ...(changes.status ? { disabledAt: changes.status === 'disabled' ? before.disabledAt ?? now : null } : {}),
    });
    return { before: presentStaffUser(before), after: presentStaffUser((await users.byId(id))!) };
  }
}
