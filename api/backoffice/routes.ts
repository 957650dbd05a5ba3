import { Router } from 'express';
import type { Knex } from 'knex';
import type { EsignProvider } from '../../providers/esign-client';
import { stripDocument } from '../../domain/documents';
import { NotFound } from '../../domain/errors';
import { PIX_MANUAL_RETRY } from '../../domain/pix-retry';
import { principalLabel } from '../../domain/principal';
import { BackofficeRepository } from '../../db/repositories/backoffice';
import { operationWorkflowId } from '../../domain/workflow-ids';
import { approveUpdate, cancelUpdate, denyUpdate, retryDisbursementUpdate, sendForSignatureUpdate } from '../../workflows/operation/messages';
import type { Config } from '../../platform/config/config';
import type { TemporalHandle } from '../temporal/client';
import { handle, ok } from '../http/handle';
import { body, page } from '../http/request-helpers';
import type { Schema } from '../openapi/contract-types';
import { executeWorkflowUpdate } from '../temporal/workflow-calls';
import { operationDetail } from './operation-detail';
import { stuckOperations } from './stuck-operations';
import { approvalProgress } from './approval-progress';
import { notIndependentOf } from './independent-approvers';
import { auditedRequest } from '../audit/audit-trail';
import type { AuditedRequest } from '../../domain/audit-chain';
import type { Request } from 'express';
import { renderOperation } from '../operations/presenter';
import { WebhookSubscriptionRepository } from '../../db/repositories/webhooks';
import { presentWebhook } from '../webhooks/presenter';

type StaffRequest = { ctx: { principal?: { tokenType: string; userId?: string; email?: string } } };
const userOf = (req: Request) => principalLabel(req.ctx.principal!);
const approverOf = (req: StaffRequest) => ({ userId: req.ctx.principal!.userId!, email: req.ctx.principal!.email! });

export interface BackofficeRouteDeps {
  db: Knex;
  temporal: TemporalHandle;
  config: Config;
  esign: EsignProvider;
  now: () => Date;
}

/** Backoffice staff (user tokens): the approval queue across originators, the decisions on it, and what is stuck. */
export function backofficeRoutes(deps: BackofficeRouteDeps): Router {
  const router = Router();
  const repository = new BackofficeRepository(deps.db);

  /**
   * A staff decision through the workflow. The update carries the request's who, from where and
   * request id, and what it sent (`request`): the activity that applies the decision writes the
   * audit row in the transaction of the change, and the update answers once both committed. A
   * refusal is recorded by the error handler (api/audit/refusals.ts).
   */
  async function decide(req: Request, action: string, act: (workflowId: string, audit: AuditedRequest) => Promise<unknown>) {
    const id = String(req.params.id);
    const op = await repository.operation(id);
    if (!op) throw new NotFound('operation_not_found');
    const sent = req.body && typeof req.body === 'object' && Object.keys(req.body).length > 0 ? req.body : null;
    await act(operationWorkflowId(op.id), auditedRequest(req, action, sent));
    const operation = await renderOperation(deps.db, op.originatorId, op.id, 'read');
    return { op, operation };
  }

  router.get('/v1/backoffice/originators', handle(async () => ok({ items: await repository.originators() })));

  router.get('/v1/backoffice/approval-queue', handle(async (req) => {
    const { limit, offset } = page(req);
    const q = req.query as Record<string, string | undefined>;
    const { items, total } = await repository.approvalQueue({
      originatorId: q.originator_id, assignorDocument: q.assignor_document ? stripDocument(q.assignor_document) : undefined,
      minAmount: q.min_amount, maxAmount: q.max_amount, createdFrom: q.created_from, createdTo: q.created_to,
    }, limit, offset);
    const progress = await approvalProgress(deps.db, items);
    return ok({
      items: items.map((op): Schema<'ApprovalQueueItem'> => ({
        id: op.id, display_number: op.displayNumber, lifecycle_status: op.lifecycleStatus,
        originator_id: op.originatorId, originator_name: op.originatorName,
        assignor_id: op.assignorId, assignor_name: op.assignorName, assignor_document: op.assignorDocument,
        opr_requested_net_future_value: op.oprRequestedNetFutureValue, opr_net_present_liquid_value: op.oprNetPresentLiquidValue,
        channel: op.channel, created_at: op.createdAt.toISOString(), review_reason: op.reviewReason, ...progress.get(op.id),
      })),
      total, limit, offset,
    });
  }));

  router.get('/v1/backoffice/webhooks', handle(async (req) => {
    const { items, total } = await new WebhookSubscriptionRepository(deps.db, String(req.query.originator_id)).list(page(req));
    return ok({ items: items.map(presentWebhook), total, ...page(req) });
  }));

  router.get('/v1/backoffice/stuck-operations', handle(async (req) => {
    const { limit, offset } = page(req);
    return ok(await stuckOperations(deps, deps.now(), limit, offset));
  }));

  router.get('/v1/backoffice/operations/:id', handle(async (req) => ok(await operationDetail(deps, String(req.params.id)))));

  // The answer says how far four-eyes got: still WAITING_APPROVAL with one approval of two, or moved on.
  router.post('/v1/backoffice/operations/:id/approve', handle(async (req) => {
    const sent = body<'approveOperation'>(req);
    const notIndependent = await notIndependentOf(deps.db, approverOf(req).userId, deps.now());
    const { op, operation } = await decide(req, 'operation.approve', (workflowId, audit) => executeWorkflowUpdate(deps, workflowId, 'operation_cannot_be_approved', approveUpdate, {
      decidedBy: userOf(req), note: sent?.note ?? null, approver: approverOf(req), notIndependentOf: notIndependent, audit,
    }));
    const progress = await approvalProgress(deps.db, [op]);
    const approved: Schema<'ApprovedOperation'> = { ...operation, ...progress.get(op.id)! };
    return ok(approved);
  }));

  router.post('/v1/backoffice/operations/:id/deny', handle(async (req) => {
    const sent = body<'denyOperation'>(req);
    return ok((await decide(req, 'operation.deny', (workflowId, audit) =>
      executeWorkflowUpdate(deps, workflowId, 'operation_cannot_be_denied', denyUpdate, { decidedBy: userOf(req), reason: sent.reason, audit }))).operation);
  }));

  router.post('/v1/backoffice/operations/:id/cancel', handle(async (req) => {
    const sent = body<'backofficeCancelOperation'>(req);
    return ok((await decide(req, 'operation.cancel', (workflowId, audit) =>
      executeWorkflowUpdate(deps, workflowId, 'operation_cannot_be_cancelled', cancelUpdate, { requestedBy: userOf(req), reason: sent.reason, audit }))).operation);
  }));

  router.post('/v1/backoffice/operations/:id/retry-disbursement', handle(async (req) => ok((await decide(req, 'operation.retry_disbursement', (workflowId, audit) =>
    executeWorkflowUpdate(deps, workflowId, PIX_MANUAL_RETRY.refusal, retryDisbursementUpdate, { requestedBy: userOf(req), audit }))).operation)));

  // Staff re-dispatch after CONTRACT_ERROR: the same workflow update as the integrator's route; the
  // answer is the operation, not the signers' URLs, which are the signers' credentials.
  router.post('/v1/backoffice/operations/:id/contract/send-for-signature', handle(async (req) => ok((await decide(req, 'operation.send_for_signature', (workflowId, audit) =>
    executeWorkflowUpdate(deps, workflowId, 'contract_already_exists', sendForSignatureUpdate, { embedded: null, audit }))).operation)));
  return router;
}
