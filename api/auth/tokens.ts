import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { NotAuthenticated } from '../../domain/errors';
import type { KeyRing } from './keys';
import type { ServiceEnv } from '../../platform/config/config';
import { acceptsCredential } from './credential-environment';

export type TokenType = 'client' | 'user';

export interface TokenClaims {
  sub: string;
  originator_id: string | null;
  env: string;
  scopes: string[];
  token_type: TokenType;
  exp: number;
  iat: number;
}

const ISSUER = 'receivables-anticipation-api';

/**
 * The environment a token was issued for must be this deployment's: a user token
 * carries the service's own environment, a client token its credential's, which `dev` accepts
 * when sandbox. A token of another deployment that shares the key fails here.
 */
function envMatches(serviceEnv: ServiceEnv, env: unknown): boolean {
  if (env === serviceEnv) return true;
  return (env === 'prod' || env === 'sandbox') && acceptsCredential(serviceEnv, env);
}

export interface TokenAudience {
  /** `aud` of every token issued, and the only one accepted. */
  audience: string;
  serviceEnv: ServiceEnv;
}

export class TokenService {
  constructor(
    private readonly keys: KeyRing,
    private readonly ttlSeconds: number,
    private readonly scope: TokenAudience,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get expiresIn(): number {
    return this.ttlSeconds;
  }

  issue(claims: Omit<TokenClaims, 'exp' | 'iat'>): string {
    const iat = Math.floor(this.now().getTime() / 1000);
    return jwt.sign({ ...claims, iat, exp: iat + this.ttlSeconds }, this.keys.current.privateKey, {
      algorithm: 'RS256',
      keyid: this.keys.current.kid,
      issuer: ISSUER,
      audience: this.scope.audience,
      jwtid: randomUUID(),
    });
  }

  /** Only RS256 with a key of ours is accepted: `alg: none` and HS* never verify. */
  async verify(token: string): Promise<TokenClaims> {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload === 'string' || decoded.header.alg !== 'RS256' || !decoded.header.kid) {
      throw new NotAuthenticated('invalid_token');
    }
    const key = await this.keys.find(decoded.header.kid);
    if (!key) throw new NotAuthenticated('invalid_token');
    let claims: TokenClaims;
    try {
      claims = jwt.verify(token, key.publicKey, {
        algorithms: ['RS256'],
        issuer: ISSUER,
        audience: this.scope.audience,
        clockTimestamp: Math.floor(this.now().getTime() / 1000),
      }) as TokenClaims;
    } catch (err) {
      if (err instanceof jwt.TokenExpiredError) throw new NotAuthenticated('token_expired');
      throw new NotAuthenticated('invalid_token');
    }
    if (!envMatches(this.scope.serviceEnv, claims.env)) throw new NotAuthenticated('invalid_token');
    return claims;
  }
}
