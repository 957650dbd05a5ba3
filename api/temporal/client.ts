import {
  Client, Connection, defaultGrpcRetryOptions, GrpcRetryOptions, makeGrpcRetryInterceptor, ServiceError, WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { InterceptingCall, Interceptor, Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { Config } from '../../platform/config/config';
import { encryptingDataConverter } from '../../platform/crypto/payload-codec';
import { temporalRequestMetrics } from '../../platform/telemetry/temporal-client-metrics';

export interface TemporalHandle {
  client: Client;
  connection: Connection;
  namespace: string;
  taskQueue: string;
  updateDeadlineMs: number;
}

const GRPC_RESOURCE_EXHAUSTED = 8;
/**
 * The server's refusal of an update that reached a run as it continued as new (a RESOURCE_EXHAUSTED
 * of cause BUSY_WORKFLOW, "workflow is closing"): the new run takes it as soon as it is asked again.
 */
const WORKFLOW_CLOSING = /workflow is closing/i;

/**
 * The client's retry schedule, with one change: the SDK waits 1.7 s before retrying any
 * RESOURCE_EXHAUSTED, right for a namespace over its rate limit but not for an update that raced a
 * continue-as-new, which would then be answered seconds late (the contract answers every update within 2 s).
 */
export function temporalRetryOptions(): GrpcRetryOptions {
  return defaultGrpcRetryOptions({
    initialIntervalMs: ({ code, details }) => {
      if (code !== GRPC_RESOURCE_EXHAUSTED) return 100;
      return WORKFLOW_CLOSING.test(details) ? 50 : 1_000;
    },
  });
}

const CLOSED_CHANNEL = /channel has been shut down/i;

/**
 * The last interceptor of the api's connection: an attempt started once the connection is closed
 * ends CANCELLED instead of throwing. The SDK's retry interceptor starts each next attempt from a
 * timer it never clears, so an attempt falling due after `close()` (a request's call still backing
 * off when the api stops) threw "Channel has been shut down" from that timer: an uncaught exception
 * in whatever the process ran next (a test file in the same process, seen with TEST_JOBS=2).
 * CANCELLED is not retried, so the call that was waiting ends with it.
 */
const endOnClosedConnection: Interceptor = (options, nextCall) => {
  try {
    return new InterceptingCall(nextCall(options));
  } catch (err) {
    if (!CLOSED_CHANNEL.test((err as Error).message)) throw err;
    return new InterceptingCall({
      start: (_metadata, listener) => {
        setImmediate(() => listener?.onReceiveStatus?.({ code: GrpcStatus.CANCELLED, details: 'the Temporal connection was closed', metadata: new Metadata() }));
      },
      cancelWithStatus: () => undefined,
      getPeer: () => '',
      sendMessageWithContext: () => undefined,
      sendMessage: () => undefined,
      startRead: () => undefined,
      halfClose: () => undefined,
      getAuthContext: () => null,
    });
  }
};

/**
 * A lazy connection: the api starts (and reports `degraded`) even while Temporal is down. Every
 * attempt of every call is counted in the `temporal_request` metrics (inside the retry
 * interceptor). With `traced`, starts, updates, signals and queries carry the request's
 * trace to the workflow.
 */
export function connectTemporal(config: Config['temporal'], payloadKeys: Config['payloadKeys'], traced = false): TemporalHandle {
  const connection = Connection.lazy({
    address: config.address,
    connectTimeout: 2_000,
    interceptors: [makeGrpcRetryInterceptor(temporalRetryOptions()), temporalRequestMetrics(config.namespace), endOnClosedConnection],
  });
  const client = new Client({
    connection, namespace: config.namespace, dataConverter: encryptingDataConverter(payloadKeys),
    ...(traced ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
  });
  return { client, connection, namespace: config.namespace, taskQueue: config.taskQueue, updateDeadlineMs: config.updateDeadlineMs };
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
