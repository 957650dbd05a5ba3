import { operationWorkflowId } from '../../domain/workflow-ids';
import type { Config } from '../../platform/config/config';

/** Where an operator opens an operation's workflow, or null when Temporal Web's address is not configured. */
export function workflowLink(config: Config, operationId: string): string | null {
  const base = config.temporal.webUrl;
  if (!base) return null;
  const namespace = encodeURIComponent(config.temporal.namespace);
  return `${base.replace(/\/+$/, '')}/namespaces/${namespace}/workflows/${encodeURIComponent(operationWorkflowId(operationId))}`;
}
