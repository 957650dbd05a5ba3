import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { RateLimited } from '../../domain/errors';
import { admit } from '../../db/repositories/rate-limit';
import type { Config } from '../../db/config';
import type { RateLimitClass, RouteSpec } from '../openapi/route-table';

export interface RateLimitDeps {
  db: Knex;
  config: Config['rateLimit'];
  now: () => Date;
}

type Scope = 'ip' | 'token';
interface Budget { bucket: string; limit: number }

/** The contract exempts health, the OpenAPI document and the JWKS: marked `x-rate-limit: exempt`. Provider callbacks have their own class. */
const limited = (route: RouteSpec) => route.rateLimit !== 'exempt';

const limitHeaders = (limit: number, remaining: number) => ({ 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining) });

function refusal(scope: Scope, limit: number, retryAfterSeconds: number): RateLimited {
  return new RateLimited(
    {
      code: 'rate_limit_exceeded',
      scope,
      limit_rpm: limit,
      retry_after_seconds: retryAfterSeconds,
      message: `Rate limit of ${limit} requests per minute exceeded for this ${scope === 'ip' ? 'origin address' : 'credential'}; retry in ${retryAfterSeconds} s`,
    },
    { ...limitHeaders(limit, 0), 'Retry-After': String(retryAfterSeconds) },
  );
}

/** One admission per request and scope; only the origin limit's values go out on success. */
function limiter(deps: RateLimitDeps, scope: Scope, budgetOf: (req: Request) => Budget | null): RequestHandler {
  return async (req, res, next) => {
    const budget = deps.config.enabled && limited(req.ctx.route!) ? budgetOf(req) : null;
    if (!budget) return next();
    try {
      const admission = await admit(deps.db, budget.bucket, budget.limit, deps.now());
      if (!admission.allowed) return next(refusal(scope, budget.limit, admission.retryAfterSeconds));
      if (scope === 'ip') res.set(limitHeaders(budget.limit, admission.remaining));
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** Before authentication, by origin address, with a budget per route class (login and token exchange are tighter). */
export function perIpRateLimit(deps: RateLimitDeps): RequestHandler {
  const limits = { default: deps.config.perIpRpm, login: deps.config.loginRpm, auth_token: deps.config.tokenRpm, callback: deps.config.callbackRpm };
  return limiter(deps, 'ip', (req) => {
    const routeClass = req.ctx.route!.rateLimit as Exclude<RateLimitClass, 'exempt'>;
    return { bucket: `ip:${routeClass}:${req.ctx.clientIp}`, limit: limits[routeClass] };
  });
}

/** After authentication, so a refused credential consumes nothing: one budget per API credential (or user). */
export function perTokenRateLimit(deps: RateLimitDeps): RequestHandler {
  return limiter(deps, 'token', (req) => {
    const principal = req.ctx.principal;
    if (!principal) return null;
    const bucket = principal.tokenType === 'client' ? `token:${principal.credentialId}` : `user:${principal.userId}`;
    return { bucket, limit: deps.config.perTokenRpm };
  });
}
