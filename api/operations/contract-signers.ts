import type { Knex } from 'knex';
import { Conflict, NotFound, ProviderFailed } from '../../domain/errors';
import type { EsignDocument, EsignProvider } from '../../providers/esign-client';
import { ContractsRepository } from '../../db/repositories/contracts';
import { OperationsRepository } from '../../db/repositories/operations';

/**
 * The contract in force and its document as the provider has it now: read live, never from a
 * copy, because `sign_url` is a credential we do not keep (not in Postgres, not in workflow
 * history). While the dispatch is pending: 404 `contract_not_found`, then 409
 * `contract_not_dispatched` (both transient).
 */
async function liveContract(db: Knex, esign: EsignProvider, originatorId: string, operationId: string) {
  const operations = new OperationsRepository(db, originatorId);
  const op = await operations.byId(operationId);
  if (!op) throw new NotFound('contract_not_found');
  const contract = await new ContractsRepository(db).active(operationId);
  if (!contract) throw new NotFound('contract_not_found');
  if (contract.status === 'PENDING' || !contract.providerDocumentId) throw new Conflict('contract_not_dispatched');
  let document: EsignDocument;
  try {
    document = await esign.getDocument(contract.providerDocumentId);
  } catch {
    throw new ProviderFailed('esign_unavailable');
  }
  if (document.signers.length === 0) throw new Conflict('contract_not_dispatched');
  return { operations, contract, document };
}

/** `GET /v1/operations/{id}/contract/signers`; never 200 empty. */
export async function contractSigners(db: Knex, esign: EsignProvider, originatorId: string, operationId: string) {
  const { contract, document } = await liveContract(db, esign, originatorId, operationId);
  return {
    operation_id: operationId,
    contract_id: contract.id,
    doc_token: document.docToken,
    document_status: document.documentStatus,
    signers: document.signers.map((s) => ({ name: s.name, status: s.status, signed: s.signed, sign_url: s.signed ? null : s.signUrl })),
  };
}

/** The answer of `send-for-signature` once the workflow has dispatched: composed here from the provider, not carried through history. */
export async function dispatchedContract(db: Knex, esign: EsignProvider, originatorId: string, operationId: string) {
  const { operations, contract, document } = await liveContract(db, esign, originatorId, operationId);
  return {
    operation_id: operationId,
    contract_id: contract.id,
    doc_token: document.docToken,
    lifecycle_status: 'CONTRACT_SENT',
    is_first_contract: contract.isFirstContract,
    titles_count: await operations.titleCount(operationId),
    signers_count: document.signers.length,
    signers_notified: contract.embedded ? null : document.signers.length,
    embedded: contract.embedded,
    signers: document.signers.map((s) => ({ name: s.name, status: s.status, sign_url: s.signUrl })),
  };
}
