import { Router } from 'express';
import type { Knex } from 'knex';
import { readSignatureCallback } from '../../activities/esign-client';
import { readSettlementCallback } from '../../activities/pix-client';
import { operationOfDocument, operationOfPayment } from '../../db/repositories/provider-references';
import { operationWorkflowId } from '../../domain/workflow-ids';
import { disbursementSettledSignal, signerSignedSignal } from '../../workflows/operation-messages';
import type { TemporalHandle } from '../temporal-client';
import { handle } from '../http/handle';
import { signalWorkflow } from '../operations/workflow-calls';

/**
 * Provider callbacks (internal routes). A callback is only a hint that wakes the workflow, which
 * then re-reads the provider itself, so a forged call can at most cause an extra read.
 */
export function providerCallbackRoutes(deps: { db: Knex; temporal: TemporalHandle }): Router {
  const router = Router();
  const accepted = { status: 202, body: { accepted: true } };

  router.post('/v1/internal/esign/callback', handle(async (req) => {
    const notice = readSignatureCallback(req.body);
    const operationId = notice && await operationOfDocument(deps.db, notice.documentId);
    if (operationId) await signalWorkflow(deps, operationWorkflowId(operationId), signerSignedSignal.name);
    return accepted;
  }));

  router.post('/v1/internal/pix/callback', handle(async (req) => {
    const settlement = readSettlementCallback(req.body);
    const operationId = settlement && await operationOfPayment(deps.db, settlement.paymentId, settlement.idempotencyKey);
    if (operationId) await signalWorkflow(deps, operationWorkflowId(operationId), disbursementSettledSignal.name);
    return accepted;
  }));
  return router;
}
