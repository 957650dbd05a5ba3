import type { RequestHandler } from 'express';
import type { Logger } from '../../platform/logger';

/** One JSON line per request, written when the response has been sent. */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    // The logger formats a line before its transport drops it by level: not even that when it would be dropped.
    if (!logger.isLevelEnabled('info')) return next();
    res.on('finish', () => {
      const principal = req.ctx.principal;
      logger.info('request', {
        request_id: req.ctx.requestId,
        correlation_id: req.ctx.correlationId,
        trace_id: req.ctx.traceId,
        span_id: req.ctx.spanId,
        originator_id: principal?.originatorId ?? null,
        method: req.method,
        route: req.ctx.route?.pathTemplate ?? req.path,
        status: res.statusCode,
        ms: Math.round((performance.now() - req.ctx.startedAt) * 10) / 10,
      });
    });
    next();
  };
}
