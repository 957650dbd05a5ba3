import { Client, Connection, WorkflowExecutionDescription } from '@temporalio/client';
import { expect } from 'chai';
import { DISPLAY_NUMBER, ENVIRONMENT, LIFECYCLE_STATUS, ORIGINATOR_ID } from '../../domain/search-attributes';
import { operationWorkflowId } from '../../domain/workflow-ids';
import type { OperationState } from '../../workflows/operation/workflow';
import { eventually } from './webhooks';
import { encryptingDataConverter } from '../../platform/crypto/payload-codec';
import { testConfig } from './stack';

/**
 * A Temporal client of the test's own (the api's is not exposed), on the server the run uses,
 * with the service's payload codec. One per test file: `after(closeTemporal)`.
 */
let client: Promise<Client> | undefined;

export function temporal(): Promise<Client> {
  client ??= connectTestClient(true);
  return client;
}

/**
 * A client as the server's other users see it: `withCodec: false` reads payloads as stored
 * (ciphertext). The caller closes its connection.
 */
export async function connectTestClient(withCodec: boolean): Promise<Client> {
  const config = testConfig();
  const connection = await Connection.connect({ address: config.temporal.address });
  return new Client({ connection, namespace: config.temporal.namespace, dataConverter: withCodec ? encryptingDataConverter(config.payloadKeys) : undefined });
}

export async function closeTemporal(): Promise<void> {
  if (!client) return;
  const closing = client;
  client = undefined;
  await (await closing).connection.close();
}

export interface OperationWorkflowView {
  description: WorkflowExecutionDescription;
  searchAttributes: { originatorId?: string; lifecycleStatus?: string; displayNumber?: string; environment?: string };
  state: OperationState;
}

/** The workflow `operation-<id>` as Temporal knows it: its execution, search attributes and `state` query. */
export async function operationWorkflow(operationId: string): Promise<OperationWorkflowView> {
  const handle = (await temporal()).workflow.getHandle(operationWorkflowId(operationId));
  const description = await handle.describe();
  const sa = description.typedSearchAttributes;
  return {
    description,
    searchAttributes: {
      originatorId: sa.get(ORIGINATOR_ID), lifecycleStatus: sa.get(LIFECYCLE_STATUS), displayNumber: sa.get(DISPLAY_NUMBER), environment: sa.get(ENVIRONMENT),
    },
    state: await handle.query<OperationState>('state'),
  };
}

/** Executions the visibility store lists for a query (eventually consistent, hence the retry). */
export async function listedWorkflows(query: string, expectedCount: number): Promise<string[]> {
  return eventually(async () => {
    const ids: string[] = [];
    for await (const execution of (await temporal()).workflow.list({ query })) ids.push(execution.workflowId);
    expect(ids, query).to.have.length(expectedCount);
    return ids;
  }, 20_000);
}
