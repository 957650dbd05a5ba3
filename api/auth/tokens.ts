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
  /** RFC 9068 §2.2.3: `scopes` space-separated; absent from tokens issued before it. */
  scope?: string;
  token_type: TokenType;
  exp: number;
  iat: number;
}

/** RFC 9068 §2.1: the header `typ` of a JWT access token. */
const ACCESS_TOKEN_TYPE = 'at+jwt';

/**
 * The form tokens had before RFC 9068's: `typ: JWT` and this fixed `iss`. Such a token verifies
 * until it expires (a token lifetime after the change, none is left); each form must be whole, so
 * an `at+jwt` token naming the old issuer is refused.
 */
const PREVIOUS_FORM = { typ: 'JWT', issuer: 'receivables-anticipation-api' };

/**
 * The environment a token was issued for must be this deployment's: a user token
 * carries the service's own environment, a client token its credential's, which `dev` accepts
 * when sandbox. A token of another deployment that shares the key fails here.
 */
function envMatches(serviceEnv: ServiceEnv, env: unknown): boolean {
  if (env === serviceEnv) return true;
  return (env === 'prod' || env === 'sandbox') && acceptsCredential(serviceEnv, env);
}

export interface TokenParties {
  /** `iss` of every token issued: the RFC 8414 metadata's `issuer`, PUBLIC_URL. */
  issuer: string;
  /** `aud` of every token issued, and the only one accepted. */
  audience: string;
  serviceEnv: ServiceEnv;
}

export class TokenService {
  constructor(
    private readonly keys: KeyRing,
    private readonly ttlSeconds: number,
    private readonly parties: TokenParties,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get expiresIn(): number {
    return this.ttlSeconds;
  }

  issue(claims: Omit<TokenClaims, 'exp' | 'iat' | 'scope'>): string {
    const iat = Math.floor(this.now().getTime() / 1000);
    return jwt.sign({ ...claims, scope: claims.scopes.join(' '), iat, exp: iat + this.ttlSeconds }, this.keys.current.privateKey, {
      algorithm: 'RS256',
      header: { alg: 'RS256', typ: ACCESS_TOKEN_TYPE, kid: this.keys.current.kid },
      issuer: this.parties.issuer,
      audience: this.parties.audience,
      jwtid: randomUUID(),
    });
  }

  /** The issuer a token of this header `typ` must name, or null for a `typ` we never issued. */
  private issuerOf(typ: unknown): string | null {
    if (typ === ACCESS_TOKEN_TYPE) return this.parties.issuer;
    return typ === PREVIOUS_FORM.typ ? PREVIOUS_FORM.issuer : null;
  }

  /** Only RS256 with a key of ours is accepted: `alg: none` and HS* never verify. */
  async verify(token: string): Promise<TokenClaims> {
    const decoded = jwt.decode(token, { complete: true });
    const issuer = decoded ? this.issuerOf(decoded.header.typ) : null;
    if (!decoded || typeof decoded.payload === 'string' || decoded.header.alg !== 'RS256' || !decoded.header.kid || issuer === null) {
      throw new NotAuthenticated('invalid_token');
    }
    const key = await this.keys.find(decoded.header.kid);
    if (!key) throw new NotAuthenticated('invalid_token');
    let claims: TokenClaims;
    try {
      claims = jwt.verify(token, key.publicKey, {
        algorithms: ['RS256'],
        issuer,
        audience: this.parties.audience,
        clockTimestamp: Math.floor(this.now().getTime() / 1000),
      }) as TokenClaims;
    } catch (err) {
      if (err instanceof jwt.TokenExpiredError) throw new NotAuthenticated('token_expired');
      throw new NotAuthenticated('invalid_token');
    }
    if (!envMatches(this.parties.serviceEnv, claims.env)) throw new NotAuthenticated('invalid_token');
    return claims;
  }
}
