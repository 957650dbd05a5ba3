import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { NotAuthenticated } from '../../domain/errors';
import type { KeyRing } from './keys';

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

export class TokenService {
  constructor(
    private readonly keys: KeyRing,
    private readonly ttlSeconds: number,
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
    try {
      return jwt.verify(token, key.publicKey, {
        algorithms: ['RS256'],
        issuer: ISSUER,
        clockTimestamp: Math.floor(this.now().getTime() / 1000),
      }) as TokenClaims;
    } catch (err) {
      if (err instanceof jwt.TokenExpiredError) throw new NotAuthenticated('token_expired');
      throw new NotAuthenticated('invalid_token');
    }
  }
}
