import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { RateLimited } from '../../domain/errors';
import { rateLimitAddress } from '../../domain/client-address';
import { principalLabel } from '../../domain/principal';
import { admit, MINUTE } from '../../db/repositories/rate-limit';
import type { Config } from '../../platform/config/config';
import type { RouteSpec } from '../openapi/route-table';
import type { AuthService } from '../auth/auth-service';
import { requestedClientId } from '../auth/token-request';
import { LoginAddressesRepository } from '../../db/repositories/login-addresses';
import { ownAddressesSince } from '../../domain/login-lockout';

export interface RateLimitDeps {
  db: Knex;
  config: Config['rateLimit'];
  now: () => Date;
}

/** `account`: a login e-mail or a client id, whatever address the attempts come from. */
type Scope = 'ip' | 'token' | 'account';
interface Budget { scope: Scope; bucket: string; limit: number; windowSeconds: number }

const HOUR = 3_600;

/**
 * The contract exempts the OpenAPI document and the JWKS: marked `x-rate-limit: exempt`. Provider
 * callbacks have their own class; health is counted in memory (below), not here.
 */
const limited = (route: RouteSpec) => route.rateLimit !== 'exempt' && route.rateLimit !== 'health';

const limitHeaders = (limit: number, remaining: number) => ({ 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining) });

const SCOPE_NAMES: Record<Scope, string> = { ip: 'origin address', token: 'credential', account: 'account' };

function refusal({ scope, limit, windowSeconds }: Budget, retryAfterSeconds: number): RateLimited {
  const per = windowSeconds === MINUTE ? 'minute' : `${windowSeconds / 60} minutes`;
  return new RateLimited(
    {
      code: 'rate_limit_exceeded',
      scope,
      limit_rpm: limit,
      ...(windowSeconds === MINUTE ? {} : { window_seconds: windowSeconds }),
      retry_after_seconds: retryAfterSeconds,
      message: `Rate limit of ${limit} requests per ${per} exceeded for this ${SCOPE_NAMES[scope]}; retry in ${retryAfterSeconds} s`,
    },
    { ...limitHeaders(limit, 0), 'Retry-After': String(retryAfterSeconds) },
  );
}

/** One admission per budget, in order, the first refusal answering; only the origin limit's values go out on success. */
function limiter(deps: RateLimitDeps, budgetsOf: (req: Request) => Budget[] | Promise<Budget[]>): RequestHandler {
  return async (req, res, next) => {
    try {
      const budgets = deps.config.enabled && limited(req.ctx.route!) ? await budgetsOf(req) : [];
      for (const budget of budgets) {
        const admission = await admit(deps.db, budget.bucket, budget.limit, deps.now(), budget.windowSeconds);
        if (!admission.allowed) return next(refusal(budget, admission.retryAfterSeconds));
        if (budget.scope === 'ip') res.set(limitHeaders(budget.limit, admission.remaining));
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** The address a request is counted under: the client as the trusted proxies report it, an IPv6 one by its /64. */
const origin = (req: Request) => rateLimitAddress(req.ip, req.socket.remoteAddress);

/** Identities are named in the bucket by digest: an e-mail is personal data, and a client id is whatever the caller sent. */
const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/**
 * Health's per-address budget, kept in this process's memory: health answers from memory whatever
 * Postgres does (a database outage must read as `degraded`, not as a limiter failure), so its limit
 * must not need Postgres either. Each api process counts its own.
 */
function healthLimit(deps: RateLimitDeps): RequestHandler {
  const windowMs = MINUTE * 1000;
  const limit = deps.config.healthRpm;
  const seen = new Map<string, number[]>();
  return (req, res, next) => {
    if (!deps.config.enabled) return next();
    const now = deps.now().getTime();
    const address = origin(req);
    const recent = (seen.get(address) ?? []).filter((at) => at > now - windowMs);
    if (recent.length >= limit) {
      const budget: Budget = { scope: 'ip', bucket: address, limit, windowSeconds: MINUTE };
      return next(refusal(budget, Math.max(1, Math.ceil((recent[0] + windowMs - now) / 1000))));
    }
    // A flood of fresh addresses must not grow the map without end: past its size it starts over.
    if (seen.size >= 10_000) seen.clear();
    recent.push(now);
    seen.set(address, recent);
    res.set(limitHeaders(limit, limit - recent.length));
    next();
  };
}

/** Before authentication, by origin address, with a budget per route class (login and token exchange are tighter). */
export function perIpRateLimit(deps: RateLimitDeps): RequestHandler {
  const limits = { default: deps.config.perIpRpm, login: deps.config.loginRpm, auth_token: deps.config.tokenRpm, callback: deps.config.callbackRpm };
  const shared = limiter(deps, (req) => {
    const routeClass = req.ctx.route!.rateLimit as keyof typeof limits;
    return [{ scope: 'ip', bucket: `ip:${routeClass}:${origin(req)}`, limit: limits[routeClass], windowSeconds: MINUTE }];
  });
  const health = healthLimit(deps);
  return (req, res, next) => (req.ctx.route!.rateLimit === 'health' ? health(req, res, next) : shared(req, res, next));
}

/**
 * Before authentication, by the identity a secret is being tried against: a login e-mail (an hourly
 * budget per address, and a larger one for all the addresses the account has not signed in from
 * lately together, so failures from elsewhere cannot keep the owner out), a client id on token exchange,
 * and a client id on the legacy headers, whose secret checks count against the token exchange's
 * budgets (per address and per client) unless this process has already verified that secret.
 */
export function perIdentityRateLimit(deps: RateLimitDeps, auth: AuthService): RequestHandler {
  const client = (clientId: string): Budget => ({ scope: 'account', bucket: `client:${digest(clientId)}`, limit: deps.config.tokenRpm, windowSeconds: MINUTE });
  const knownAddresses = new LoginAddressesRepository(deps.db);
  return limiter(deps, async (req) => {
    const route = req.ctx.route!;
    if (route.rateLimit === 'login') {
      const email: unknown = req.body?.email;
      if (typeof email !== 'string') return [];
      const [account, address] = [digest(email.toLowerCase()), origin(req)];
      const budgets: Budget[] = [{ scope: 'account', bucket: `login:${account}:${address}`, limit: deps.config.loginAccountPerHour, windowSeconds: HOUR }];
      if (!(await knownAddresses.known(email, address, ownAddressesSince(deps.now())))) {
        budgets.push({ scope: 'account', bucket: `login:${account}`, limit: deps.config.loginAccountCeilingPerHour, windowSeconds: HOUR });
      }
      return budgets;
    }
    if (route.rateLimit === 'auth_token') {
      const clientId = requestedClientId(req.body, req.get('Authorization'));
      return clientId === null ? [] : [client(clientId)];
    }
    const [clientId, secret] = [req.get('X-Client-Id'), req.get('X-Client-Secret')];
    if (req.get('Authorization') !== undefined || !clientId || !secret || !route.security.some((r) => 'legacyClientId' in r)) return [];
    if (await auth.remembersSecret(clientId, secret)) return [];
    return [{ scope: 'ip', bucket: `ip:auth_token:${origin(req)}`, limit: deps.config.tokenRpm, windowSeconds: MINUTE }, client(clientId)];
  });
}

/** After authentication, so a refused credential consumes nothing: one budget per API credential (or user). */
export function perTokenRateLimit(deps: RateLimitDeps): RequestHandler {
  return limiter(deps, (req) => {
    const principal = req.ctx.principal;
    if (!principal) return [];
    return [{ scope: 'token', bucket: principalLabel(principal), limit: deps.config.perTokenRpm, windowSeconds: MINUTE }];
  });
}
