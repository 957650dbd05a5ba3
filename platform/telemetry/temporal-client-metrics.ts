import { InterceptingCall, Interceptor, status as GrpcStatus } from '@grpc/grpc-js';
import { Counter, Histogram } from 'prom-client';
import { registry } from './registry';

/**
 * The api's Temporal calls under the names and labels the Temporal runtime gives a worker's
 * (`temporal_request_total`, `temporal_request_failure_total{status_code}`,
 * `temporal_request_latency_seconds`, and the `long_` family for calls that wait on a workflow),
 * so one query covers every process. The api's client runs on `@temporalio/client`'s own gRPC
 * connection, outside that runtime, so it counts here, per attempt as the runtime does (inside the
 * retry interceptor). `operation` is the RPC's name: a closed set fixed by Temporal's API.
 */

/** The runtime's own buckets, so that a quantile over the api's and the workers' histograms adds up. */
const LATENCY_BUCKETS = [0.05, 0.1, 0.5, 1, 2.5, 10];

/** Calls whose answer waits on the workflow's progress, not only the service's: their latency is no health figure. */
const LONG_CALLS = new Set(['UpdateWorkflowExecution', 'PollWorkflowExecutionUpdate', 'GetWorkflowExecutionHistory']);

function family(prefix: string, kind: string) {
  return {
    requests: new Counter({
      name: `temporal_${prefix}request_total`, help: `The api's ${kind} to Temporal, per attempt.`,
      labelNames: ['namespace', 'operation'] as const, registers: [registry],
    }),
    failures: new Counter({
      name: `temporal_${prefix}request_failure_total`, help: `The api's ${kind} to Temporal that failed, by gRPC status.`,
      labelNames: ['namespace', 'operation', 'status_code'] as const, registers: [registry],
    }),
    latency: new Histogram({
      name: `temporal_${prefix}request_latency_seconds`, help: `Latency of the api's ${kind} to Temporal.`,
      labelNames: ['namespace', 'operation'] as const, buckets: LATENCY_BUCKETS, registers: [registry],
    }),
  };
}

let families: { short: ReturnType<typeof family>; long: ReturnType<typeof family> } | undefined;

/** The interceptor counting each call of this process's Temporal client in `namespace`. */
export function temporalRequestMetrics(namespace: string): Interceptor {
  families ??= { short: family('', 'calls'), long: family('long_', 'long-poll calls') };
  const { short, long } = families;
  return (options, nextCall) => {
    const operation = options.method_definition.path.slice(options.method_definition.path.lastIndexOf('/') + 1);
    const metrics = LONG_CALLS.has(operation) ? long : short;
    const labels = { namespace, operation };
    return new InterceptingCall(nextCall(options), {
      start(metadata, _listener, next) {
        metrics.requests.inc(labels);
        const stop = metrics.latency.startTimer(labels);
        next(metadata, {
          onReceiveStatus(status, nextStatus) {
            stop();
            if (status.code !== GrpcStatus.OK) metrics.failures.inc({ ...labels, status_code: GrpcStatus[status.code] ?? 'UNKNOWN' });
            nextStatus(status);
          },
        });
      },
    });
  };
}
