import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../../db/config';
import type { Logger } from '../../db/logger';
import { defaultExecutor } from '../http/unit-of-work';

const SAFE_ID = /^[\w.:-]{1,128}$/;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// POSTs that write nothing: a transaction would only add its BEGIN and COMMIT round trips.
const READS_ONLY = new Set(['simulate']);

/**
 * Gives every request its ids and stamps the platform headers first, so that every response,
 * errors included, carries them.
 */
export function requestContext(config: Config, db: Knex, logger: Logger): RequestHandler {
  const platform: Record<string, string> = {
    'X-Service-Env': config.serviceEnv,
    'X-Service-API-Version': config.apiVersion,
    ...(config.serviceEnv === 'prod' ? {} : { 'X-Service-Banner': config.serviceEnv.toUpperCase() }),
  };
  return (req, res, next) => {
    const incoming = req.get('X-Request-Id');
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : uuidv7();
    const callerCorrelation = req.get('X-Correlation-Id');
    const correlationId = callerCorrelation && SAFE_ID.test(callerCorrelation) ? callerCorrelation : requestId;
    req.ctx = {
      requestId,
      correlationId,
      startedAt: performance.now(),
      clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
      // The route is resolved later in the pipeline, so whether to open a transaction is decided when the work runs.
      execute: (work) => defaultExecutor(db, MUTATING.has(req.method) && !READS_ONLY.has(req.ctx.route?.operationId ?? ''), logger)(work),
    };
    res.set(platform);
    res.set('X-Request-Id', requestId);
    res.set('X-Correlation-Id', correlationId);
    next();
  };
}
