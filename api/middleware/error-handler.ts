import type { ErrorRequestHandler, Request } from 'express';
import { AppError, errorCode, ValidationFailed } from '../../domain/errors';
import { knownFailure } from '../http/known-failure';
import type { Logger } from '../../platform/logger';
import { tokenEndpointError } from '../auth/oauth-errors';

/** `/v1/auth/*` validation bodies never echo what was sent (passwords, secrets). */
function redactInputs(err: ValidationFailed): ValidationFailed {
  return new ValidationFailed(
    err.errors.map((e) => ('input' in e ? { ...e, input: '[REDACTED]' } : e)),
    (err.detail as { message: string }).message,
  );
}

/**
 * The answer to an error, always JSON: an echoed `input` that cannot be serialised (too deep, a
 * cycle, a BigInt) is dropped; any other body that cannot be is a 500, rather than letting the
 * failure escape to Express's HTML page.
 */
function serialise(error: AppError, logger: Logger): { status: number; text: string } {
  try {
    return { status: error.status, text: JSON.stringify(error.toBody()) };
  } catch (failure) {
    logger.error('error body not serialisable', { err: (failure as Error).message });
    if (!(error instanceof ValidationFailed)) return { status: 500, text: JSON.stringify({ detail: 'internal_error' }) };
    const withoutInputs = error.errors.map(({ input: _input, ...rest }) => rest);
    return { status: error.status, text: JSON.stringify(new ValidationFailed(withoutInputs, (error.detail as { message: string }).message).toBody()) };
  }
}

/**
 * The one place where failures become HTTP responses. Stacks are logged only for 500s.
 * `beforeAnswer` sees the error as answered (the audit of refused staff actions), before the answer goes.
 */
export function errorHandler(logger: Logger, beforeAnswer?: (req: Request, error: AppError) => Promise<void>): ErrorRequestHandler {
  return async (err, req, res, _next) => {
    let appError: AppError;
    const known = knownFailure(err);
    if (known === null) {
      logger.error('unhandled error', { request_id: req.ctx?.requestId, err: (err as Error).message, stack: (err as Error).stack });
      appError = new AppError(500, 'internal_error');
    } else if (known.warning !== undefined) {
      logger.warn(known.warning, { request_id: req.ctx?.requestId, err: (err as Error).message });
      appError = known.error;
    } else {
      appError = known.error instanceof ValidationFailed && req.path.startsWith('/v1/auth/') ? redactInputs(known.error) : known.error;
      if (req.ctx?.route?.pathTemplate === '/v1/auth/token') appError = tokenEndpointError(appError, /^basic /i.test(req.get('Authorization') ?? ''));
    }
    if (res.headersSent) return res.end();
    await beforeAnswer?.(req, appError);
    const { status, text } = serialise(appError, logger);
    res.set(appError.headers).status(status);
    // With response validation on (every test run), error bodies are checked against the document like every reply.
    if (res.locals.replyThroughValidator) {
      // Named in the log if the validator refuses this body (lastResortJson).
      res.locals.errorCode = errorCode(appError);
      res.json(JSON.parse(text));
    }
    else res.type('application/json').send(text);
  };
}

/**
 * After the error handler, for what reaches past it: the response validator refusing an error
 * body calls a `next` it kept from earlier, which would otherwise end in Express's HTML page.
 * The answer is still JSON in the contract's envelope; the log says which body broke the document.
 */
export function lastResortJson(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    logger.error('answer that breaks the document', {
      request_id: req.ctx?.requestId, route: req.ctx?.route?.pathTemplate, status: res.statusCode, code: res.locals.errorCode, err: (err as Error).message,
    });
    if (res.headersSent) return res.end();
    const text = JSON.stringify({ detail: 'internal_error' });
    res.status(500).setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(text);
  };
}
