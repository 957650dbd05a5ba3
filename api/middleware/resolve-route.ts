import type { RequestHandler } from 'express';
import { MethodNotAllowed, NotFound } from '../../domain/errors';
import type { RouteTable } from '../openapi/route-table';

/**
 * Finds the documented operation for the request: an undocumented path is a 404 in the envelope, a
 * documented path with another method a 405 with `Allow`.
 */
export function resolveRoute(routes: RouteTable): RequestHandler {
  return (req, _res, next) => {
    const route = routes.match(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (!route) return next(new NotFound('not_found'));
    if ('allowed' in route) return next(new MethodNotAllowed(route.allowed.includes('GET') ? [...route.allowed, 'HEAD'] : route.allowed));
    req.ctx.route = route;
    next();
  };
}
