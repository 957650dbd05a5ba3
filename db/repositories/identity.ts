import type { Knex } from 'knex';

export interface CredentialRow {
  id: string;
  originatorId: string;
  clientId: string;
  secretHash: string;
  env: 'prod' | 'sandbox';
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  kind: 'backoffice' | 'originator';
  originatorId: string | null;
  scopes: string[];
  /** Staff roles; empty for portal users and staff created before them. */
  roles: string[];
  /** TOTP secret sealed with the key ring; null when the user has no second factor. */
  totpSecretSealed: string | null;
  totpLastStep: number | null;
  /** The lockout of attempts from addresses the account has not signed in from. */
  failedAttempts: number;
  lockedUntil: Date | null;
  /** The lockout of attempts from the addresses it signed in from (login_addresses). */
  ownFailedAttempts: number;
  ownLockedUntil: Date | null;
  disabledAt: Date | null;
}

const credentialColumns = {
  id: 'id', originatorId: 'originator_id', clientId: 'client_id', secretHash: 'secret_hash', env: 'env',
  scopes: 'scopes', expiresAt: 'expires_at', revokedAt: 'revoked_at',
};

const userColumns = {
  id: 'id', email: 'email', name: 'name', passwordHash: 'password_hash', kind: 'kind', originatorId: 'originator_id',
  scopes: 'scopes', roles: 'roles', totpSecretSealed: 'totp_secret_sealed', totpLastStep: 'totp_last_step', failedAttempts: 'failed_attempts', lockedUntil: 'locked_until', disabledAt: 'disabled_at',
  ownFailedAttempts: 'own_failed_attempts', ownLockedUntil: 'own_locked_until',
};

/** Identity lookups are cross-tenant by nature: they are what establishes the tenant. */
export class IdentityRepository {
  constructor(private readonly db: Knex) {}

  async credentialByClientId(clientId: string): Promise<CredentialRow | undefined> {
    return this.db('api_credentials').select(credentialColumns).where({ client_id: clientId }).first();
  }

  async credentialById(id: string): Promise<CredentialRow | undefined> {
    return this.db('api_credentials').select(credentialColumns).where({ id }).first();
  }

  async revokeCredential(id: string, at: Date): Promise<void> {
    await this.db('api_credentials').where({ id }).update({ revoked_at: at });
  }

  async userByEmail(email: string): Promise<UserRow | undefined> {
    return this.db('users').select(userColumns).whereRaw('lower(email) = lower(?)', [email]).first();
  }

  /** The user, its row locked until the transaction ends: a login's counters change under it. */
  async lockUserById(id: string): Promise<UserRow | undefined> {
    return this.db('users').select(userColumns).where({ id }).forUpdate().first();
  }

  async userById(id: string): Promise<UserRow | undefined> {
    return this.db('users').select(userColumns).where({ id }).first();
  }

  /** `own`: the attempt came from an address the account signed in from, whose lockout is its own. */
  async recordLoginFailure(id: string, failedAttempts: number, lockedUntil: Date | null, own: boolean): Promise<void> {
    await this.db('users').where({ id }).update(own
      ? { own_failed_attempts: failedAttempts, own_locked_until: lockedUntil }
      : { failed_attempts: failedAttempts, locked_until: lockedUntil });
  }

  async recordLoginSuccess(id: string): Promise<void> {
    await this.db('users').where({ id }).update({ failed_attempts: 0, locked_until: null, own_failed_attempts: 0, own_locked_until: null });
  }

  /** The time step of the TOTP code just accepted: that code, and any older one, is spent. */
  async recordTotpStep(id: string, step: number): Promise<void> {
    await this.db('users').where({ id }).update({ totp_last_step: step });
  }

  async replacePasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db('users').where({ id }).update({ password_hash: passwordHash });
  }
}
