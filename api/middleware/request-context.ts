import { randomFillSync } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../../platform/config/config';
import type { Logger } from '../../platform/logger';
import { defaultExecutor } from '../http/unit-of-work';
import { traceIdsOf } from '../http/traceparent';

const SAFE_ID = /^[\w.:-]{1,128}$/;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * POSTs whose work is not one request transaction: simulate writes nothing (a transaction would only
 * add its BEGIN and COMMIT round trips); payer payments wait on a workflow update and run their own
 * short transactions around it, so no connection is held while Temporal is slow; the other routes
 * that wait on a workflow update (cancel, dispatch, approve, deny, retry) only read before and after
 * it, and the workflow's activities write the move, so they hold no transaction across the wait
 * either; login and token exchange run a slow hash, which must hold no pool connection,
 * and login writes its verdict in a short transaction of its own. The PIX collection's webhook and
 * sweeps apply each PIX through its title's workflow, and the sandbox payer calls the PSP: a burst of
 * webhooks each holding a connection across those waits left none for the work itself (503s).
 */
const OWN_TRANSACTIONS = new Set([
  'simulate', 'recordPayerPayment', 'simulatePayerPayment', 'login', 'createToken',
  'cancelOperation', 'sendContractForSignature', 'approveOperation', 'denyOperation', 'retryDisbursement', 'backofficeResendContract',
  'pixCollectionCallback', 'pixCollectionSweep', 'sweepCollection', 'simulateTitlePix',
]);

/**
 * uuid's v7 asks the system for 16 random bytes per id: 3 % of the api's CPU on a simulation in the
 * profile. The random part of request ids is drawn from a pool filled for 256 ids at a time.
 */
const POOLED_IDS = 256;
const pool = new Uint8Array(16 * POOLED_IDS);
let drawn = POOLED_IDS;

function newRequestId(): string {
  if (drawn === POOLED_IDS) {
    randomFillSync(pool);
    drawn = 0;
  }
  drawn += 1;
  return uuidv7({ random: pool.subarray(16 * (drawn - 1), 16 * drawn) });
}

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
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : newRequestId();
    const callerCorrelation = req.get('X-Correlation-Id');
    const correlationId = callerCorrelation && SAFE_ID.test(callerCorrelation) ? callerCorrelation : requestId;
    const { traceId, spanId, traceparent } = traceIdsOf(req.get('traceparent'));
    req.ctx = {
      requestId,
      correlationId,
      traceId,
      spanId,
      startedAt: performance.now(),
      clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
      // The route is resolved later in the pipeline, so whether to open a transaction is decided when the work runs.
      execute: (work) => defaultExecutor(db, MUTATING.has(req.method) && !OWN_TRANSACTIONS.has(req.ctx.route?.operationId ?? ''), logger)(work),
    };
    for (const name in platform) res.setHeader(name, platform[name]);
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Correlation-Id', correlationId);
    res.setHeader('traceparent', traceparent);
    next();
  };
}
