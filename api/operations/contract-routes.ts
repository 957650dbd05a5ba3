import { Router } from 'express';
import type { Knex } from 'knex';
import type { EsignProvider } from '../../providers/esign-client';
import { sendForSignatureUpdate } from '../../workflows/operation/messages';
import type { TemporalHandle } from '../temporal/client';
import { created, handle, ok } from '../http/handle';
import { body, tenantOf } from '../http/request-helpers';
import { contractSigners, dispatchedContract } from './contract-signers';
import { executeWorkflowUpdate, requireOperation } from '../temporal/workflow-calls';

export interface ContractRouteDeps {
  db: Knex;
  temporal: TemporalHandle;
  esign: EsignProvider;
}

/** Integrator actions on an operation's contract: its signers and its dispatch. */
export function contractRoutes(deps: ContractRouteDeps): Router {
  const router = Router();

  router.get('/v1/operations/:id/contract/signers', handle(async (req, uow) =>
    ok(await contractSigners(uow.db, deps.esign, tenantOf(req), String(req.params.id)))));

  router.post('/v1/operations/:id/contract/send-for-signature', handle(async (req, uow) => {
    const workflowId = await requireOperation(uow.db, tenantOf(req), String(req.params.id), 'operation_not_found');
    const embedded = body<'sendContractForSignature'>(req)?.embedded ?? null;
    await executeWorkflowUpdate(deps, workflowId, 'contract_already_exists', sendForSignatureUpdate, { embedded });
    return created(await dispatchedContract(uow.db, deps.esign, tenantOf(req), String(req.params.id)));
  }));
  return router;
}
