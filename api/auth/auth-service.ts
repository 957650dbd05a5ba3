import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { Forbidden, Locked, NotAuthenticated, Unavailable } from '../../domain/errors';
import { IdentityRepository, CredentialRow } from '../../db/repositories/identity';
import { LoginAddressesRepository } from '../../db/repositories/login-addresses';
import { isDatabaseUnavailable } from '../../db/unavailable';
import type { Config } from '../../platform/config/config';
import { acceptsCredential, credentialEnvironment } from './credential-environment';
import { DECOY_HASH, decoyPasswordHash, hashPassword, needsRehash, verifySecret } from '../../platform/crypto/passwords';
import type { Principal } from '../../domain/principal';
import type { TokenClaims, TokenService } from './tokens';
import type { ReferenceCache } from '../cache/reference-cache';
import { judgeLogin, LoginState, ownAddressesSince } from '../../domain/login-lockout';
import { HashGate } from './hash-gate';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { acceptedTotpStep } from '../../platform/crypto/totp';
import { secondFactorMissing } from '../../domain/second-factor';
import type { ResponseBody } from '../openapi/contract-types';

export type TokenResponse = ResponseBody<'createToken', 200>;

type LoginResponse = TokenResponse & { user: Record<string, unknown> };

/** Writes a successful sign-in's audit row within the transaction that records it. */
export type SignInAudit = (trx: Knex, userId: string) => Promise<void>;

/**
 * Credentials and users: token exchange, login with lockout, and re-reading the identity behind
 * every request so that revocation and expiry take effect at once.
 */
export class AuthService {
  private readonly verifiedSecrets = new Map<string, true>();
  private readonly hashGate: HashGate;
  private readonly ring: CipherRing;
  /** Tokens whose signature this process has checked, until they expire or `cache.state.ttlMs` passes: RS256 verification is a third of a request's CPU. */
  private readonly verifiedTokens = new Map<string, { claims: TokenClaims; until: number }>();

  constructor(
    private readonly db: Knex,
    private readonly tokens: TokenService,
    private readonly config: Pick<Config, 'serviceEnv' | 'login' | 'passwords' | 'payloadKeys'>,
    private readonly cache: ReferenceCache,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.hashGate = new HashGate(config.login.hashConcurrency, config.login.hashQueue);
    this.ring = new CipherRing(config.payloadKeys);
  }

  private usable(row: CredentialRow | undefined): row is CredentialRow {
    if (!row || row.revokedAt) return false;
    if (row.expiresAt && row.expiresAt.getTime() <= this.now().getTime()) return false;
    const prefixEnv = credentialEnvironment(row.clientId);
    return prefixEnv === row.env && acceptsCredential(this.config.serviceEnv, row.env);
  }

  private static secretKey(clientId: string, secret: string, hash: string): string {
    return createHash('sha256').update(`${clientId}\0${secret}\0${hash}`).digest('hex');
  }

  /** Whether this secret was verified for this client here already, so checking it again costs no slow hash. */
  async remembersSecret(clientId: string, secret: string): Promise<boolean> {
    const row = await this.cache.credentialByClientId(clientId);
    return row !== undefined && this.verifiedSecrets.has(AuthService.secretKey(clientId, secret, row.secretHash));
  }

  /** Verifies a client secret; a verified (id, secret, hash) triple is remembered to spare the slow hash. */
  private async checkCredential(clientId: string, secret: string): Promise<CredentialRow> {
    const row = await this.cache.credentialByClientId(clientId);
    const hash = row?.secretHash ?? DECOY_HASH;
    const cacheKey = AuthService.secretKey(clientId, secret, hash);
    const ok = this.verifiedSecrets.has(cacheKey) || (await verifySecret(secret, hash));
    if (!ok || !this.usable(row)) throw new NotAuthenticated('invalid_client_credentials');
    if (this.verifiedSecrets.size > 10_000) this.verifiedSecrets.clear();
    this.verifiedSecrets.set(cacheKey, true);
    return row;
  }

  async exchangeClientCredentials(clientId: string, secret: string, requested: string[] | null): Promise<TokenResponse> {
    const row = await this.checkCredential(clientId, secret);
    const scopes = requested ?? row.scopes;
    const notAllowed = scopes.filter((scope) => !row.scopes.includes(scope));
    if (notAllowed.length > 0) {
      throw new Forbidden({
        code: 'scope_not_allowed',
        message: `Scopes not allowed for this credential: ${notAllowed.join(', ')}`,
        allowed_scopes: row.scopes,
      });
    }
    const access_token = this.tokens.issue({
      sub: row.id, originator_id: row.originatorId, env: row.env, scopes, token_type: 'client',
    });
    return { access_token, token_type: 'bearer', expires_in: this.tokens.expiresIn, scopes, scope: scopes.join(' ') };
  }

  async authenticateLegacy(clientId: string, secret: string): Promise<Principal> {
    const row = await this.checkCredential(clientId, secret);
    return { tokenType: 'client', credentialId: row.id, clientId: row.clientId, originatorId: row.originatorId, env: row.env, scopes: row.scopes };
  }

  /** The signing keys changed: a remembered token may have been signed by a key that verifies no more. */
  forgetVerifiedTokens(): void {
    this.verifiedTokens.clear();
  }

  private async verify(token: string): Promise<TokenClaims> {
    const now = this.now().getTime();
    const known = this.verifiedTokens.get(token);
    if (known && known.until > now) return known.claims;
    const claims = await this.tokens.verify(token);
    if (this.verifiedTokens.size >= 10_000) this.verifiedTokens.clear();
    this.verifiedTokens.set(token, { claims, until: Math.min(claims.exp * 1000, now + this.cache.state.ttlMs) });
    return claims;
  }

  async authenticateBearer(token: string): Promise<Principal> {
    const claims = await this.verify(token);
    if (claims.token_type === 'client') {
      const row = await this.cache.credentialById(claims.sub);
      if (!this.usable(row)) throw new NotAuthenticated('invalid_client_credentials');
      const scopes = claims.scopes.filter((scope) => row.scopes.includes(scope));
      return { tokenType: 'client', credentialId: row.id, clientId: row.clientId, originatorId: row.originatorId, env: row.env, scopes };
    }
    if (claims.token_type === 'user') {
      const user = await this.cache.userById(claims.sub);
      if (!user) throw new NotAuthenticated('user_not_found');
      if (user.disabledAt) throw new NotAuthenticated('user_disabled');
      return { tokenType: 'user', userId: user.id, email: user.email, userKind: user.kind, originatorId: user.originatorId, scopes: user.scopes };
    }
    throw new NotAuthenticated('invalid_token');
  }

  /**
   * `address`: where the attempt comes from, as the rate limiter counts it; a success makes it the
   * account's own. `audited` writes the sign-in's audit row in the transaction that records the success.
   */
  async login(email: string, password: string, totp: string | undefined, address: string, audited?: SignInAudit): Promise<LoginResponse> {
    try {
      // A password changed between the check and the write (another login upgrading its hash) is checked once more.
      return (await this.attemptLogin(email, password, totp, address, audited)) ?? (await this.attemptLogin(email, password, totp, address, audited)) ?? this.refuse();
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw new Unavailable('authentication_temporarily_unavailable');
      throw err;
    }
  }

  private refuse(): never {
    throw new NotAuthenticated('invalid_credentials');
  }

  /**
   * The slow hash runs first, outside any transaction and behind the gate, so a burst of logins
   * holds neither pool connections nor row locks; only the verdict is written under the row lock.
   * Null when the stored hash changed meanwhile.
   */
  private async attemptLogin(email: string, password: string, totp: string | undefined, address: string, audited?: SignInAudit): Promise<LoginResponse | null> {
    const found = await new IdentityRepository(this.db).userByEmail(email);
    const log2n = this.config.passwords.scryptLog2N;
    const checkedHash = found?.passwordHash ?? decoyPasswordHash(log2n);
    const { matches, upgrade } = await this.hashGate.run(async () => {
      const ok = await verifySecret(password, checkedHash);
      // The parameters were raised since this password was hashed: the password in hand upgrades it.
      return { matches: ok, upgrade: ok && found && needsRehash(checkedHash, log2n) ? await hashPassword(password, log2n) : null };
    });
    if (!found || found.disabledAt) this.refuse();
    const result = await this.db.transaction(async (trx) => {
      const users = new IdentityRepository(trx);
      const user = await users.lockUserById(found.id);
      if (!user || user.disabledAt) return { refused: true } as const;
      if (user.passwordHash !== checkedHash) return null;
      const now = this.now();
      // Failures from elsewhere lock elsewhere: at an address it signed in from, the owner meets only its own.
      const own = await new LoginAddressesRepository(trx).knownById(user.id, address, ownAddressesSince(now));
      const state: LoginState = own ? { failedAttempts: user.ownFailedAttempts, lockedUntil: user.ownLockedUntil } : user;
      // The second factor is asked for only once the password checked out, so it tells a guesser nothing.
      if (matches && judgeLogin(state, true, now, this.config.login).outcome !== 'locked') {
        const missing = secondFactorMissing(user, totp, this.config.serviceEnv);
        if (missing) return { missing } as const;
      }
      const step = matches && user.totpSecretSealed ? acceptedTotpStep(this.ring.openText(user.totpSecretSealed), totp!, now, user.totpLastStep) : null;
      // A wrong or spent code counts as a wrong password.
      const verdict = judgeLogin(state, matches && (user.totpSecretSealed === null || step !== null), now, this.config.login);
      if (verdict.outcome === 'locked') return { locked: true } as const;
      if (verdict.outcome === 'failure') {
        await users.recordLoginFailure(user.id, verdict.failedAttempts, verdict.lockedUntil, own);
        return { refused: true } as const;
      }
      await users.recordLoginSuccess(user.id);
      await new LoginAddressesRepository(trx).remember(user.id, address, now);
      if (step !== null) await users.recordTotpStep(user.id, step);
      if (upgrade) await users.replacePasswordHash(user.id, upgrade);
      await audited?.(trx, user.id);
      return { user };
    });
    // A failure is committed before answering, so the counter survives the 401.
    if (result === null) return null;
    if ('locked' in result) throw new Locked('user_locked');
    if ('missing' in result && result.missing) throw new NotAuthenticated(result.missing);
    if ('refused' in result) this.refuse();
    const { user } = result;
    const access_token = this.tokens.issue({
      sub: user.id, originator_id: user.originatorId, env: this.config.serviceEnv, scopes: user.scopes, token_type: 'user',
    });
    return {
      access_token, token_type: 'bearer', expires_in: this.tokens.expiresIn, scopes: user.scopes, scope: user.scopes.join(' '),
      user: { id: user.id, email: user.email, name: user.name, kind: user.kind, originator_id: user.originatorId, roles: user.roles },
    };
  }
}
