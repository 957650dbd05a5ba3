import { Router } from 'express';
import type { Knex } from 'knex';
import type { EsignProvider } from '../../activities/esign-client';
import { NotFound } from '../../domain/errors';
import { OperationsRepository } from '../../db/repositories/operations';
import { operationWorkflowId } from '../../domain/workflow-ids';
import { cancelUpdate, sendForSignatureUpdate } from '../../workflows/operation-messages';
import type { TemporalHandle } from '../temporal-client';
import { created, handle, ok } from '../http/handle';
import { tenantOf } from '../http/request-helpers';
import { contractSigners, dispatchedContract } from './contract-signers';
import { executeWorkflowUpdate } from './workflow-calls';
import { renderOperation } from './routes';

export interface ContractRouteDeps {
  db: Knex;
  temporal: TemporalHandle;
  esign: EsignProvider;
}

/** The operation must be the caller's: another originator's id is 404 like a missing one. */
async function requireOperation(db: Knex, originatorId: string, id: string, notFoundCode: string): Promise<string> {
  const op = await new OperationsRepository(db, originatorId).byId(id);
  if (!op) throw new NotFound(notFoundCode);
  return operationWorkflowId(op.id);
}

/** Integrator actions on an operation's lifecycle: contract signers, dispatch, cancellation. */
export function contractRoutes(deps: ContractRouteDeps): Router {
  const router = Router();

  router.get('/v1/operations/:id/contract/signers', handle(async (req, uow) =>
    ok(await contractSigners(uow.db, deps.esign, tenantOf(req), String(req.params.id)))));

  router.post('/v1/operations/:id/contract/send-for-signature', handle(async (req, uow) => {
    const workflowId = await requireOperation(uow.db, tenantOf(req), String(req.params.id), 'operation_not_found');
    const embedded = typeof req.body?.embedded === 'boolean' ? req.body.embedded : null;
    await executeWorkflowUpdate(deps, workflowId, 'contract_already_exists', sendForSignatureUpdate, { embedded });
    return created(await dispatchedContract(uow.db, deps.esign, tenantOf(req), String(req.params.id)));
  }));

  router.post('/v1/operations/:id/cancel', handle(async (req, uow) => {
    const originatorId = tenantOf(req);
    const workflowId = await requireOperation(uow.db, originatorId, String(req.params.id), 'operation_not_found');
    const principal = req.ctx.principal!;
    const requestedBy = principal.tokenType === 'client' ? `credential:${principal.credentialId}` : `user:${principal.userId}`;
    await executeWorkflowUpdate(deps, workflowId, 'operation_cannot_be_cancelled', cancelUpdate, { requestedBy, reason: req.body?.reason ?? null });
    return ok(await renderOperation(deps.db, originatorId, String(req.params.id), 'read'));
  }));
  return router;
}
