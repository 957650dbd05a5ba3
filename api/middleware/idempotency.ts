import type { RequestHandler } from 'express';
import { RuleViolation } from '../../domain/errors';
import { principalLabel, type Principal } from '../../domain/principal';
import { requestHash } from './idempotency-body';
import { ExecutorDeps, idempotentExecutor } from './idempotency-executor';
import { IDEMPOTENCY_KEY_LENGTH } from '../../domain/idempotency-key';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Credential exchanges: a retry simply issues another token. */
const KEYLESS_ROUTES = new Set(['/v1/auth/login', '/v1/auth/token']);

/** The contract scopes keys per originator; a user without one (backoffice staff) has its own. */
function scopeOf(principal: Principal): string {
  return principal.originatorId ?? principalLabel(principal);
}

/**
 * `Idempotency-Key` on every POST, PUT, PATCH and DELETE under `/v1/*`. It sits before the
 * OpenAPI validator so the contract's two codes win over a generic `validation_error`, and the
 * body is hashed here, as the client sent it. Nothing is reserved yet: the request's executor is
 * replaced, and the reservation happens when the handler runs, after validation, so a request
 * refused by the schema leaves no record behind.
 */
export function idempotency(deps: ExecutorDeps): RequestHandler {
  return (req, res, next) => {
    const route = req.ctx.route!;
    if (!MUTATING.has(req.method) || !route.pathTemplate.startsWith('/v1/') || KEYLESS_ROUTES.has(route.pathTemplate)) return next();
    const key = req.get('Idempotency-Key');
    if (key === undefined) {
      if (route.idempotencyKey === 'optional') return next();
      return next(new RuleViolation({ code: 'idempotency_key_required', message: 'This route requires an Idempotency-Key header of 16 to 80 characters' }));
    }
    if (key.length < IDEMPOTENCY_KEY_LENGTH.min || key.length > IDEMPOTENCY_KEY_LENGTH.max) {
      return next(new RuleViolation({ code: 'idempotency_key_invalid', message: `Idempotency-Key must have 16 to 80 characters, got ${key.length}` }));
    }
    const principal = req.ctx.principal;
    // Every keyed route is authenticated; the guard only keeps a future public one unkeyed.
    if (!principal) return next();
    let clientGone = false;
    res.once('close', () => { clientGone = !res.writableFinished; });
    req.ctx.execute = idempotentExecutor(deps, {
      scope: scopeOf(principal),
      key,
      route: `${req.method} ${req.path.replace(/\/$/, '')}`,
      requestHash: requestHash(req.body),
    }, () => clientGone);
    next();
  };
}
