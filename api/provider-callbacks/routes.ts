import { Request, Router } from 'express';
import type { Knex } from 'knex';
import { NotAuthenticated } from '../../domain/errors';
import { readSignatureCallback } from '../../providers/esign-client';
import { readSettlementCallback } from '../../providers/pix-client';
import { operationOfDocument, operationOfPayment } from '../../db/repositories/provider-references';
import { operationWorkflowId } from '../../domain/workflow-ids';
import { disbursementSettledSignal, signerSignedSignal } from '../../workflows/operation/messages';
import type { TemporalHandle } from '../temporal/client';
import { handle } from '../http/handle';
import { body } from '../http/request-helpers';
import { signalWorkflow } from '../temporal/workflow-calls';
import type { UnitOfWork } from '../http/context';
import { recordCallbackSignature } from '../../db/repositories/callback-signatures';

/**
 * The first delivery of a verified signature (api/middleware/provider-signature.ts checked it);
 * a replay is accepted and does nothing. A request that reached the handler without a verified
 * signature (a pipeline that skipped the check) is refused, never served.
 */
function firstDelivery(req: Request, uow: UnitOfWork): Promise<boolean> {
  if (!req.providerCallback) throw new NotAuthenticated('callback_signature_missing');
  const { provider, signature } = req.providerCallback;
  return recordCallbackSignature(uow.db, provider, signature, new Date());
}

/**
 * Provider callbacks (internal routes), signed by the provider. A callback is only a hint that
 * wakes the workflow, which then re-reads the provider itself.
 */
export function providerCallbackRoutes(deps: { db: Knex; temporal: TemporalHandle }): Router {
  const router = Router();
  const accepted = { status: 202, body: { accepted: true } };

  router.post('/v1/internal/esign/callback', handle(async (req, uow) => {
    if (!(await firstDelivery(req, uow))) return accepted;
    const notice = readSignatureCallback(body<'esignCallback'>(req));
    const operationId = notice && await operationOfDocument(deps.db, notice.documentId);
    if (operationId) await signalWorkflow(deps, operationWorkflowId(operationId), signerSignedSignal.name);
    return accepted;
  }));

  router.post('/v1/internal/pix/callback', handle(async (req, uow) => {
    if (!(await firstDelivery(req, uow))) return accepted;
    const settlement = readSettlementCallback(body<'pixCallback'>(req));
    const operationId = settlement && await operationOfPayment(deps.db, settlement.paymentId, settlement.idempotencyKey);
    if (operationId) await signalWorkflow(deps, operationWorkflowId(operationId), disbursementSettledSignal.name);
    return accepted;
  }));
  return router;
}
