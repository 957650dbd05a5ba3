import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import { Contract, ContractsRepository } from '../db/repositories/contracts';
import type { EsignProvider } from '../providers/esign-client';
import { EsignError } from '../providers/provider-errors';

export interface ContractActivityDeps {
  db: Knex;
  esign: EsignProvider;
  /** Where the provider calls back when a signer signs (the api's internal route). */
  esignCallbackUrl: string;
}

function failure(err: unknown): never {
  if (err instanceof EsignError) {
    // A refusal will not change on retry: the workflow records CONTRACT_ERROR with the step's code.
    if (!err.retryable) throw ApplicationFailure.nonRetryable(err.message, err.code);
    throw ApplicationFailure.retryable(err.message, err.code);
  }
  throw err;
}

export function createContractActivities({ db, esign, esignCallbackUrl }: ContractActivityDeps) {
  const contracts = new ContractsRepository(db);

  async function voidPartial(contract: Contract, errorCode: string): Promise<void> {
    if (contract.providerDocumentId) await esign.voidDocument(contract.providerDocumentId).catch(() => undefined);
    await contracts.failed(contract.id, errorCode);
  }

  return {
    /**
     * Creates the document, adds the assignor as signer, checks the templates and sets the
     * signer's authentication (advanced for a full contract, on-screen for an addendum). On a
     * failure the partial document is voided, so CONTRACT_ERROR leaves nothing at the provider.
     */
    async dispatchContract({ operationId, embedded, attempt }: { operationId: string; embedded: boolean; attempt: number }): Promise<{ contractId: string }> {
      const party = await contracts.partyOf(operationId);
      if (!party) throw ApplicationFailure.nonRetryable(`operation ${operationId} not found`, 'operation_not_found');
      let contract = await contracts.reserve(operationId, attempt, embedded, party);
      if (contract.status === 'SENT') return { contractId: contract.id };
      try {
        if (!contract.providerDocumentId) {
          const document = await esign.createDocument({
            type: contract.type, embedded, assignorEmail: party.assignorEmail, reference: contract.id,
            callbackUrl: esignCallbackUrl, idempotencyKey: `contract-${contract.id}`,
          });
          await contracts.documentCreated(contract.id, document.documentId, document.docToken);
          contract = { ...contract, providerDocumentId: document.documentId, docToken: document.docToken };
        }
        const documentId = contract.providerDocumentId!;
        const auth = contract.type === 'FULL_CONTRACT' ? 'advanced' : 'on_screen';
        const existing = (await esign.getDocument(documentId)).signers;
        const signers = existing.length > 0 ? existing
          : await esign.addSigners(documentId, [{ name: party.assignorName, email: party.assignorEmail }], `contract-${contract.id}-signers`);
        await esign.checkTemplates(documentId);
        for (const signer of signers) await esign.updateSigner(documentId, signer.signerId, { auth });
        await contracts.sent(contract, signers.length);
        return { contractId: contract.id };
      } catch (err) {
        if (err instanceof EsignError && !err.retryable) await voidPartial(contract, err.code);
        return failure(err);
      }
    },

    /**
     * Whether every signer has signed, by our rule on the provider's answer (never its spelling).
     * A document the provider no longer knows (404: expired, deleted, a restored backup) will not
     * come back: `esign_document_not_found`, not retried, and the workflow moves to CONTRACT_ERROR.
     */
    async checkSignatures({ operationId }: { operationId: string }): Promise<{ allSigned: boolean }> {
      const contract = await contracts.active(operationId);
      if (!contract?.providerDocumentId) return { allSigned: false };
      try {
        const document = await esign.getDocument(contract.providerDocumentId);
        const allSigned = document.signers.length > 0 && document.signers.every((s) => s.signed);
        if (allSigned) await contracts.signed(contract.id);
        return { allSigned };
      } catch (err) {
        if (err instanceof EsignError && err.providerStatus === 404) {
          throw ApplicationFailure.nonRetryable(`document ${contract.providerDocumentId} unknown to the provider`, 'esign_document_not_found');
        }
        return failure(err);
      }
    },

    /**
     * The document in force (if any) is voided at the provider: VOIDED on cancellation, or ERROR
     * with `errorCode` when the contract is abandoned for a fresh dispatch.
     */
    async voidContract({ operationId, errorCode }: { operationId: string; errorCode?: string }): Promise<void> {
      const contract = await contracts.active(operationId);
      if (!contract) return;
      try {
        if (contract.providerDocumentId) await esign.voidDocument(contract.providerDocumentId);
      } catch (err) {
        return failure(err);
      }
      await (errorCode ? contracts.failed(contract.id, errorCode) : contracts.voided(contract.id));
    },
  };
}
