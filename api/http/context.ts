import type { Knex } from 'knex';
import type { Principal } from '../../domain/principal';
import type { RouteSpec } from '../openapi/route-table';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The transaction a request's work runs in, and what must happen only once it has committed. */
export interface UnitOfWork {
  db: Knex;
  afterCommit(task: () => Promise<void>): void;
}

export type Work = (uow: UnitOfWork) => Promise<Reply>;
export type Executor = (work: Work) => Promise<Reply>;

export interface RequestContext {
  requestId: string;
  correlationId: string;
  /** The request's trace and span ids (api/http/traceparent.ts), for its log line. */
  traceId: string;
  spanId: string;
  startedAt: number;
  clientIp: string;
  route?: RouteSpec;
  principal?: Principal;
  /** Runs the handler's work; the idempotency layer replaces it to store and replay replies. */
  execute: Executor;
}

declare module 'express-serve-static-core' {
  interface Request {
    ctx: RequestContext;
  }
}
