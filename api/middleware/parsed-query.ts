import type { RequestHandler } from 'express';

/**
 * Express 5's `req.query` is a getter that parses the query string at every read; the input guard,
 * the bracket folding and the validator each read it, three parses per request. The first parse is
 * kept as the request's own property (writable and configurable, as the validator and the bracket
 * folding redefine it), so every later reader sees that one object.
 */
export function parseQueryOnce(): RequestHandler {
  return (req, _res, next) => {
    Object.defineProperty(req, 'query', { value: req.query, writable: true, configurable: true, enumerable: true });
    next();
  };
}
