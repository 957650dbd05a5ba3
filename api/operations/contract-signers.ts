import type { Knex } from 'knex';
import { Conflict, NotFound, ProviderFailed } from '../../domain/errors';
import { activeContract } from '../../activities/contract';
import type { EsignProvider } from '../../activities/esign-client';
import { OperationsRepository } from '../../db/repositories/operations';
import type { ContractDispatchView } from '../../workflows/operation';

/**
 * `GET /v1/operations/{id}/contract/signers`: read live from the provider, never from a copy,
 * because `sign_url` is a credential we do not keep. While the dispatch is pending the answer is
 * 404 `contract_not_found` then 409 `contract_not_dispatched` (both transient); never 200 empty.
 */
async function providerDocument(esign: EsignProvider, documentId: string) {
  try {
    return await esign.getDocument(documentId);
  } catch {
    throw new ProviderFailed('esign_unavailable');
  }
}

/**
 * The dispatch answer with each signer's `sign_url`, read from the provider now: the workflow's
 * view carries none, so the credential never enters its history.
 */
export async function dispatchWithSignUrls(db: Knex, esign: EsignProvider, view: ContractDispatchView) {
  const contract = await activeContract(db, view.operation_id);
  if (!contract?.provider_document_id) throw new ProviderFailed('esign_unavailable');
  const document = await providerDocument(esign, contract.provider_document_id);
  return { ...view, signers: document.signers.map((s) => ({ name: s.name, status: s.status, sign_url: s.signed ? null : s.signUrl })) };
}

export async function contractSigners(db: Knex, esign: EsignProvider, originatorId: string, operationId: string) {
  const op = await new OperationsRepository(db, originatorId).byId(operationId);
  if (!op) throw new NotFound('contract_not_found');
  const contract = await activeContract(db, operationId);
  if (!contract) throw new NotFound('contract_not_found');
  if (contract.status === 'PENDING' || !contract.provider_document_id) throw new Conflict('contract_not_dispatched');
  const document = await providerDocument(esign, contract.provider_document_id);
  if (document.signers.length === 0) throw new Conflict('contract_not_dispatched');
  return {
    operation_id: operationId,
    contract_id: contract.id,
    doc_token: document.docToken,
    document_status: document.documentStatus,
    signers: document.signers.map((s) => ({ name: s.name, status: s.status, signed: s.signed, sign_url: s.signed ? null : s.signUrl })),
  };
}
