import express, { ErrorRequestHandler, RequestHandler } from 'express';
import { ValidationFailed } from '../../domain/errors';

/**
 * JSON parsing whose failures are the contract's 422 `validation_error`, never a 400:
 * malformed JSON, an oversized body.
 */
export function jsonBody(limit: string): [RequestHandler, ErrorRequestHandler] {
  const parse = express.json({ limit, type: ['application/json', 'application/*+json'], strict: false });
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
    next(err);
  };
  return [parse, mapErrors];
}
