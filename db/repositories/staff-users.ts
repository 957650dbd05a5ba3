import type { Knex } from 'knex';
import type { StaffRole } from '../../domain/staff-roles';
import type { AccountMakers } from '../../domain/four-eyes';

export interface StaffUserRow {
  id: string;
  email: string;
  name: string;
  roles: StaffRole[];
  disabledAt: Date | null;
  /** Invited and not enrolled yet. Accounts made by SQL or the dev seed were never invited: they are active. */
  invitationPending: boolean;
  totpSecretSealed: string | null;
  createdAt: Date;
}

const columns = {
  id: 'id', email: 'email', name: 'name', roles: 'roles', disabledAt: 'disabled_at', totpSecretSealed: 'totp_secret_sealed', createdAt: 'created_at',
};

/** Backoffice staff accounts as admins manage them; a change notifies every api process's user cache. */
export class StaffUsersRepository {
  constructor(private readonly db: Knex) {}

  async emailTaken(email: string): Promise<boolean> {
    return (await this.db('users').whereRaw('lower(email) = lower(?)', [email]).first('id')) !== undefined;
  }

  async invite(user: { id: string; email: string; name: string; roles: string[]; scopes: string[]; passwordHash: string; tokenHash: string; expiresAt: Date; createdBy: string }): Promise<StaffUserRow> {
    await this.db('users').insert({
      id: user.id, email: user.email, name: user.name, kind: 'backoffice', originator_id: null, roles: user.roles, scopes: user.scopes,
      password_hash: user.passwordHash, enrolment_token_hash: user.tokenHash, enrolment_expires_at: user.expiresAt, created_by: user.createdBy,
    });
    return (await this.byId(user.id))!;
  }

  private rows() {
    return this.db('users').select(columns).select(this.db.raw('enrolment_token_hash is not null as "invitationPending"'));
  }

  async list(): Promise<StaffUserRow[]> {
    return this.rows().where({ kind: 'backoffice' }).orderBy('email');
  }

  async byId(id: string): Promise<StaffUserRow | undefined> {
    return this.rows().where({ id, kind: 'backoffice' }).first();
  }

  /** The invited user an enrolment token belongs to, locked; undefined when unknown, spent, expired or the account disabled (a revoked invitation). */
  async lockByEnrolmentToken(tokenHash: string, now: Date): Promise<StaffUserRow | undefined> {
    return this.rows().where({ enrolment_token_hash: tokenHash, disabled_at: null }).where('enrolment_expires_at', '>', now).forUpdate().first();
  }

  /** Who created and who last changed each staff account, and when. */
  /** The accounts `userId` created or last changed since `since`. */
  async madeOrChangedBy(userId: string, since: Date): Promise<AccountMakers[]> {
    return this.db('users')
      .where((q) => q.where({ created_by: userId }).andWhere('created_at', '>=', since))
      .orWhere((q) => q.where({ changed_by: userId }).andWhere('changed_at', '>=', since))
      .select({ id: 'id', createdBy: 'created_by', createdAt: 'created_at', changedBy: 'changed_by', changedAt: 'changed_at' });
  }

  async makers(ids: readonly string[]): Promise<AccountMakers[]> {
    return this.db('users').whereIn('id', [...ids])
      .select({ id: 'id', createdBy: 'created_by', createdAt: 'created_at', changedBy: 'changed_by', changedAt: 'changed_at' });
  }

  async completeEnrolment(id: string, passwordHash: string, totpSealed: string, at: Date): Promise<void> {
    await this.db('users').where({ id }).update({
      password_hash: passwordHash, totp_secret_sealed: totpSealed, totp_last_step: null, enrolled_at: at,
      enrolment_token_hash: null, enrolment_expires_at: null, failed_attempts: 0, locked_until: null,
    });
  }

  /** The ids of the enrolled, enabled admins, each row locked: concurrent changes that could remove the last admin queue here. */
  async lockActiveAdmins(): Promise<string[]> {
    const rows: { id: string }[] = await this.db('users').where({ kind: 'backoffice', disabled_at: null, enrolment_token_hash: null })
      .whereRaw('? = any(roles)', ['admin']).orderBy('id').forUpdate().select('id');
    return rows.map((row) => row.id);
  }

  /** Applies a change made by `by` at `at`, who becomes the account's last changer. */
  async update(id: string, changes: { roles?: string[]; scopes?: string[]; disabledAt?: Date | null }, by: { userId: string; at: Date }): Promise<void> {
    await this.db('users').where({ id }).update({
      ...(changes.roles ? { roles: changes.roles, scopes: changes.scopes } : {}),
      ...(changes.disabledAt !== undefined ? { disabled_at: changes.disabledAt } : {}),
      changed_by: by.userId, changed_at: by.at,
    });
  }
}
