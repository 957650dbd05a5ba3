import type { Knex } from 'knex';
import { AppError, Conflict } from '../../domain/errors';
import {
  findRecord, IdempotencyKeyRef, IdempotencyRecord, releaseReservation, reserve, storeResponse,
} from '../../db/repositories/idempotency';
import type { Config } from '../../platform/config/config';
import type { Logger } from '../../platform/logger';
import type { Executor, Reply } from '../http/context';
import { runAfterCommit } from '../http/unit-of-work';
import { begin, commit } from '../../db/transactions';
import { replayableJson } from './idempotency-body';

export interface IdempotentRequest extends IdempotencyKeyRef {
  /** Method and concrete path: the same key on another resource is another route. */
  route: string;
  requestHash: string;
}

export interface ExecutorDeps {
  db: Knex;
  settings: Config['idempotency'];
  logger: Logger;
  now: () => Date;
}

const LOCK_NOT_AVAILABLE = '55P03';
const HOUR_MS = 3_600_000;

function replay(record: IdempotencyRecord, request: IdempotentRequest): Reply {
  if (record.route !== request.route) {
    throw new Conflict({ code: 'idempotency_key_reused_on_different_route', message: `This Idempotency-Key was used on ${record.route}` });
  }
  if (record.requestHash !== request.requestHash) throw new Conflict('idempotency_key_reused_with_different_body');
  const { status, headers, body } = record.response;
  return { status, headers: { ...headers, 'Idempotency-Replayed': 'true' }, body: body === null ? undefined : JSON.parse(body) };
}

/**
 * Reserves the key, bounding the wait for a concurrent holder (lock_timeout) and the life of
 * the reservation (transaction_timeout: Postgres ends the session, which releases it).
 * True when this request owns the key.
 */
async function reserveOrWait(trx: Knex.Transaction, deps: ExecutorDeps, request: IdempotentRequest): Promise<boolean> {
  await trx.raw("select set_config('lock_timeout', ?, true), set_config('transaction_timeout', ?, true)",
    [String(deps.settings.waitMs), `${deps.settings.reservationCeilingSeconds}s`]).options({ name: 'idempotency_timeouts' });
  const createdAt = deps.now();
  try {
    return await reserve(trx, { ...request, createdAt, expiresAt: new Date(createdAt.getTime() + deps.settings.ttlHours * HOUR_MS) });
  } catch (err) {
    if ((err as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw err;
    throw new Conflict({ code: 'idempotency_key_in_flight', message: 'A request with this Idempotency-Key is still being processed; retry with the same key' });
  }
}

/** What the key will replay: 2xx and 4xx as sent (secrets nulled); a 5xx gives the key back. */
async function settle(trx: Knex.Transaction, ref: IdempotencyKeyRef, outcome: Reply | AppError): Promise<void> {
  if (outcome instanceof AppError) {
    await storeResponse(trx, ref, { status: outcome.status, headers: outcome.headers, body: replayableJson(outcome.toBody()) });
  } else if (outcome.status >= 500) {
    await releaseReservation(trx, ref);
  } else {
    await storeResponse(trx, ref, { status: outcome.status, headers: outcome.headers ?? {}, body: outcome.body === undefined ? null : replayableJson(outcome.body) });
  }
}

/**
 * The executor of a request carrying an Idempotency-Key. The reservation, the handler's work
 * and the stored response share one transaction: a concurrent request waits on the reservation
 * and then replays; a 4xx thrown by the work rolls back to a savepoint and is stored; a 5xx or
 * a crash rolls everything back, reservation included; a client that left before the commit
 * gets everything rolled back so its retry executes.
 */
export function idempotentExecutor(deps: ExecutorDeps, request: IdempotentRequest, clientGone: () => boolean): Executor {
  const ref = { scope: request.scope, key: request.key };
  return async (work) => {
    const trx = await begin(deps.db);
    try {
      if (!(await reserveOrWait(trx, deps, request))) {
        const record = await findRecord(trx, ref);
        await commit(trx);
        return replay(record, request);
      }
      // The short wait applies to the reservation only, not to locks the work itself takes.
      await trx.raw('set local lock_timeout = default; savepoint idempotent_work');
      const tasks: (() => Promise<void>)[] = [];
      let outcome: Reply | AppError;
      try {
        outcome = await work({ db: trx, afterCommit: (task) => tasks.push(task) });
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        await trx.raw('rollback to savepoint idempotent_work');
        outcome = err;
      }
      await settle(trx, ref, outcome);
      if (clientGone()) {
        await trx.rollback();
        deps.logger.info('client left before commit; work and reservation rolled back', { route: request.route });
        // nginx's "client closed request": nobody receives it.
        return { status: 499 };
      }
      await commit(trx);
      await runAfterCommit(tasks, deps.logger);
      if (outcome instanceof AppError) throw outcome;
      return outcome;
    } catch (err) {
      if (!trx.isCompleted()) await trx.rollback();
      throw err;
    }
  };
}
