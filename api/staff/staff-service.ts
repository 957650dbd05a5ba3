import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { hashPassword } from '../../platform/crypto/passwords';
import { base32Encode } from '../../platform/crypto/totp';
import type { Logger } from '../../platform/logger';
import { StaffUserRow, StaffUsersRepository } from '../../db/repositories/staff-users';
import { RoleGrantRow, StaffRoleGrantsRepository } from '../../db/repositories/staff-role-grants';
import type { MailSender } from '../../providers/mail';
import { Conflict, Forbidden, NotFound, ProviderFailed, RuleViolation } from '../../domain/errors';
import { grantsPrivilege, PRIVILEGED_ROLES, scopesOfRoles, StaffRole } from '../../domain/staff-roles';
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

export function presentRoleGrant(grant: RoleGrantRow): Schema<'RoleGrant'> {
  return {
    id: grant.id, user_id: grant.userId, roles: grant.roles, status: grant.status,
    requested_by: grant.requestedBy, requested_at: grant.requestedAt.toISOString(),
    confirmed_by: grant.confirmedBy, confirmed_at: grant.confirmedAt?.toISOString() ?? null,
  };
}

const selfChange = () => new Forbidden({ code: 'staff_self_change', message: 'No one changes their own roles or status: ask another admin' });

/**
 * Staff accounts: invitation (the enrolment token goes to the invitee by e-mail),
 * enrolment with a password and TOTP, role and status changes. Granting approver or admin waits
 * for a second admin's confirmation, and no one changes their own account.
 */
export class StaffService {
  private readonly ring: CipherRing;

  constructor(
    private readonly config: { payloadKeys: ConstructorParameters<typeof CipherRing>[0]; passwords: { scryptLog2N: number }; http: { publicUrl: string } },
    private readonly mail: MailSender,
    private readonly logger: Logger,
  ) {
    this.ring = new CipherRing(config.payloadKeys);
  }

  /** The roles without approver and admin apply at once; with either, the whole set waits for a second admin. */
  async invite(db: Knex, input: { email: string; name: string } & RoleChoice, by: string, now: Date) {
    const users = new StaffUsersRepository(db);
    if (await users.emailTaken(input.email)) throw new Conflict({ code: 'user_email_taken', message: `A user with e-mail ${input.email} exists already` });
    const token = randomBytes(32).toString('base64url');
    // Nobody knows this password: the account signs in only after enrolment sets one.
    const unusable = await hashPassword(randomBytes(32).toString('base64url'), this.config.passwords.scryptLog2N);
    const requested = rolesOf(input)!;
    const granted = requested.filter((role) => !PRIVILEGED_ROLES.includes(role));
    const user = await users.invite({
      id: uuidv7(), email: input.email, name: input.name, roles: granted, scopes: scopesOfRoles(granted), createdBy: by,
      passwordHash: unusable, tokenHash: tokenHash(token), expiresAt: new Date(now.getTime() + ENROLMENT_HOURS * 3_600_000),
    });
    const grant = grantsPrivilege(granted, requested) ? await this.requestGrant(db, user.id, requested, by, now) : null;
    await this.sendInvitation(user, requested, token);
    return { user: presentStaffUser(user), grant };
  }

  private async sendInvitation(user: StaffUserRow, roles: StaffRole[], token: string): Promise<void> {
    try {
      await this.mail.send({
        to: user.email, subject: 'Your invitation to the Receivables backoffice', enrolmentToken: token,
        text: `Hello ${user.name},\n\nYou are invited to the Receivables backoffice (roles: ${roles.join(', ')}). `
          + `Enrol within ${ENROLMENT_HOURS} hours at ${this.config.http.publicUrl}/backoffice/ with this enrolment token:\n\n${token}\n\n`
          + 'Approver and admin roles apply once a second admin confirms them.\n',
      });
    } catch (err) {
      this.logger.warn('invitation e-mail not sent', { err: (err as Error).message });
      throw new ProviderFailed('mail_unavailable');
    }
  }

  private requestGrant(db: Knex, userId: string, roles: StaffRole[], by: string, at: Date): Promise<RoleGrantRow> {
    return new StaffRoleGrantsRepository(db).request({ id: uuidv7(), userId, roles, requestedBy: by, requestedAt: at });
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

  /** A status change and a role change that grants nothing privileged apply at once; one that does waits as a grant. */
  async change(db: Knex, id: string, changes: RoleChoice & { status?: 'active' | 'disabled' }, by: string, now: Date) {
    if (id === by) throw selfChange();
    const users = new StaffUsersRepository(db);
    const before = await users.byId(id);
    if (!before) throw new NotFound('user_not_found');
    const requested = rolesOf(changes);
    const pending = requested !== undefined && grantsPrivilege(before.roles, requested);
    const roles = pending ? undefined : requested;
    if (roles || changes.status) {
      await this.keepAnAdmin(users, before, roles, changes.status);
      await users.update(id, {
        ...(roles ? { roles, scopes: scopesOfRoles(roles) } : {}),
        ...(changes.status ? { disabledAt: changes.status === 'disabled' ? before.disabledAt ?? now : null } : {}),
      }, { userId: by, at: now });
    }
    const grant = pending ? await this.requestGrant(db, id, requested, by, now) : null;
    return { before: presentStaffUser(before), after: presentStaffUser((await users.byId(id))!), grant };
  }

  /** A second admin applies a pending grant; the admin who asked for it, or its holder, cannot. */
  async confirmGrant(db: Knex, grantId: string, by: string, now: Date) {
    const grants = new StaffRoleGrantsRepository(db);
    const grant = await grants.lock(grantId);
    if (!grant) throw new NotFound('role_grant_not_found');
    if (grant.status !== 'pending') throw new Conflict({ code: 'role_grant_not_pending', message: `This grant is ${grant.status} already` });
    if (grant.userId === by) throw selfChange();
    if (grant.requestedBy === by) {
      throw new Forbidden({ code: 'grant_needs_second_admin', message: 'Another admin than the one who asked for this grant must confirm it' });
    }
    const users = new StaffUsersRepository(db);
    const before = (await users.byId(grant.userId))!;
    await this.keepAnAdmin(users, before, grant.roles, undefined);
    await users.update(grant.userId, { roles: grant.roles, scopes: scopesOfRoles(grant.roles) }, { userId: by, at: now });
    const confirmed = await grants.confirm(grant.id, by, now);
    return { grant: presentRoleGrant(confirmed), before: presentStaffUser(before), after: presentStaffUser((await users.byId(grant.userId))!) };
  }

  async pendingGrants(db: Knex) {
    return (await new StaffRoleGrantsRepository(db).pending()).map(presentRoleGrant);
  }

  private async keepAnAdmin(users: StaffUsersRepository, before: StaffUserRow, roles: StaffRole[] | undefined, status: 'active' | 'disabled' | undefined) {
    const staysAdmin = (roles ?? before.roles).includes('admin') && (status ?? (before.disabledAt ? 'disabled' : 'active')) === 'active';
    if (staysAdmin) return;
    const admins = await users.lockActiveAdmins();
    if (admins.length === 1 && admins[0] === before.id) {
      throw new Conflict({ code: 'last_admin', message: 'This is the last active admin: make another account admin before disabling it or taking its admin role' });
    }
  }
}
