import type { RequestHandler } from 'express';
import { MethodNotAllowed, NotAuthenticated, NotFound } from '../../domain/errors';
import { spellsCallbackPath } from './provider-signature';
import type { RouteTable } from '../openapi/route-table';

/**
 * Finds the documented operation for the request: an undocumented path is a 404 in the envelope, a
 * documented path with another method a 405 with `Allow`. A POST to another spelling of a provider
 * callback path is a 401, as an unsigned callback is (any spelling, never a 404 or 500).
 */
export function resolveRoute(routes: RouteTable): RequestHandler {
  return (req, _res, next) => {
    const route = routes.match(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (!route) return next(req.method === 'POST' && spellsCallbackPath(req.path) ? new NotAuthenticated('callback_signature_missing') : new NotFound('not_found'));
    if ('allowed' in route) return next(new MethodNotAllowed(route.allowed.includes('GET') ? [...route.allowed, 'HEAD'] : route.allowed));
    req.ctx.route = route;
    next();
  };
}
