import type { ClientOptions } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import {
  makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { Tracing } from '../platform/telemetry/tracing';

/**
 * Temporal's OpenTelemetry interceptors, when tracing is on: a workflow continues the trace its
 * starter (the api's request) put in its headers, its spans leave the sandbox through a sink to the
 * process's span processor, and each activity's span continues the workflow's, so its provider
 * calls carry that trace on. The workflow interceptors only add headers and call the sink: no
 * command changes, so recorded histories replay the same (test/workflows/replay.test.ts).
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

export function tracingOptions(tracing: Tracing): { worker: Partial<WorkerOptions>; client: Partial<ClientOptions> } {
  if (!tracing.sdk) return { worker: {}, client: {} };
  return {
    worker: {
      interceptors: {
        workflowModules: WORKFLOW_INTERCEPTOR_MODULES,
        activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
      },
      sinks: { exporter: makeWorkflowExporter(tracing.sdk.spanProcessor, tracing.sdk.resource) },
    },
    client: { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } },
  };
}
