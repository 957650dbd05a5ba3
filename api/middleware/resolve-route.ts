import type { RequestHandler } from 'express';
import { NotFound } from '../../domain/errors';
import type { RouteTable } from '../openapi/route-table';

/** Finds the documented operation for the request; anything undocumented is a 404 in the envelope. */
export function resolveRoute(routes: RouteTable): RequestHandler {
  return (req, _res, next) => {
    const route = routes.match(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (!route) return next(new NotFound('not_found'));
    req.ctx.route = route;
    next();
  };
}
