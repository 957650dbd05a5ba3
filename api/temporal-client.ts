import {
  Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, ServiceError, WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { Config } from '../db/config';
import { encryptingDataConverter } from '../db/crypto/payload-codec';
import { temporalRequestMetrics } from '../db/telemetry/temporal-client-metrics';

export interface TemporalHandle {
  client: Client;
  connection: Connection;
  namespace: string;
  taskQueue: string;
}

/**
 * A lazy connection: the api starts (and reports `degraded`) even while Temporal is down. Every
 * attempt of every call is counted in the `temporal_request` metrics (the SDK's default retries
 * kept, outside them). With `traced`, starts, updates, signals and queries carry the request's
 * trace to the workflow.
 */
export function connectTemporal(config: Config['temporal'], payloadKeys: Config['payloadKeys'], traced = false): TemporalHandle {
  const connection = Connection.lazy({
    address: config.address,
    connectTimeout: 2_000,
    interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), temporalRequestMetrics(config.namespace)],
  });
  const client = new Client({
    connection, namespace: config.namespace, dataConverter: encryptingDataConverter(payloadKeys),
    ...(traced ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
  });
  return { client, connection, namespace: config.namespace, taskQueue: config.taskQueue };
}

/**
 * gRPC UNAVAILABLE and DEADLINE_EXCEEDED: the server is down, restarting, or did not answer in
 * time. FAILED_PRECONDITION: the server refuses updates to a workflow whose task has failed or
 * timed out twice running (WorkflowNotReady), which passes as soon as a worker completes one; a
 * fault run saw it as 500s after Postgres, and so Temporal, came back from a freeze.
 */
const UNREACHABLE_GRPC_CODES = new Set([14, 4, 9]);

/**
 * Temporal could not be reached, did not answer within the call's deadline (a restart, a
 * partition, no worker picking the update up) or cannot take an update yet: retryable, so a 503, not a 500.
 */
export function isTemporalUnavailable(err: unknown): boolean {
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  return err instanceof ServiceError && UNREACHABLE_GRPC_CODES.has((err.cause as { code?: number } | undefined)?.code ?? -1);
}
