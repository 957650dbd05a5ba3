import express, { ErrorRequestHandler, RequestHandler } from 'express';
import { ValidationFailed } from '../../domain/errors';

/**
 * JSON parsing whose failures are the contract's 422 `validation_error`, never a 400:
 * malformed JSON, an oversized body, a body that does not match its Content-Encoding.
 */
function isZlibError(err: unknown): boolean {
  const { errno, code } = err as { errno?: unknown; code?: unknown };
  return typeof errno === 'number' && typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_'));
}

export function jsonBody(limit: string): [RequestHandler, RequestHandler, ErrorRequestHandler] {
  const parse = express.json({ limit, type: ['application/json', 'application/*+json'], strict: false });
  // Only the OAuth2 token exchange declares a form body; elsewhere the validator refuses it (422).
  const parseForm = express.urlencoded({ limit, extended: false, type: 'application/x-www-form-urlencoded' });
  const mapErrors: ErrorRequestHandler = (err, _req, _res, next) => {
    const type = (err as { type?: string }).type;
    if (type === 'entity.parse.failed') {
      const position = /position (\d+)/.exec(String(err.message))?.[1];
      return next(new ValidationFailed([{ loc: position ? ['body', Number(position)] : ['body'], msg: 'JSON decode error', type: 'json_invalid' }], 'Malformed JSON body'));
    }
    if (type === 'entity.too.large') {
      return next(new ValidationFailed([{ loc: ['body'], msg: `Body larger than ${limit}`, type: 'too_long' }], 'Request body too large'));
    }
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return next(new ValidationFailed([{ loc: ['body'], msg: String(err.message), type: 'value_error' }]));
    }
    // zlib's own error (the parser gives it no type): the body does not match its Content-Encoding
    // (gzip, deflate, br). The client's mistake, not a bug. Told apart by zlib's codes, because every
    // earlier failure passes through here too: a socket error (Postgres down under the per-IP limit)
    // also has an errno, and must stay the 503 it is.
    if (type === undefined && isZlibError(err)) {
      return next(new ValidationFailed([{ loc: ['body'], msg: `Body could not be decoded as its Content-Encoding says: ${String(err.message)}`, type: 'value_error' }], 'Unreadable request body'));
    }
    next(err);
  };
  return [parse, parseForm, mapErrors];
}
