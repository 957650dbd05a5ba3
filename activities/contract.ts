import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { ContractDispatchView } from '../workflows/operation';
import type { ContractType, EsignProvider } from './esign-client';
import { EsignError } from './provider-errors';

export interface ContractActivityDeps {
  db: Knex;
  esign: EsignProvider;
  /** Where the provider calls back when a signer signs (the api's internal route). */
  esignCallbackUrl: string;
}

interface ContractRow {
  id: string;
  originator_id: string;
  operation_id: string;
  assignor_id: string;
  attempt: number;
  status: 'PENDING' | 'SENT' | 'SIGNED' | 'ERROR' | 'VOIDED';
  type: ContractType;
  is_first_contract: boolean;
  embedded: boolean;
  provider_document_id: string | null;
  doc_token: string | null;
}

/** The contract in force for an operation: its latest dispatch that neither failed nor was voided. */
export function activeContract(db: Knex, operationId: string): Promise<ContractRow | undefined> {
  return db('contracts').where({ operation_id: operationId }).whereIn('status', ['PENDING', 'SENT', 'SIGNED']).orderBy('attempt', 'desc').first();
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
  /** A row per (operation, attempt), so a retried activity resumes the same dispatch. */
  async function reserve(operationId: string, attempt: number, embedded: boolean): Promise<ContractRow> {
    const op = await db('operations').where({ id: operationId }).first('originator_id', 'assignor_id');
    if (!op) throw ApplicationFailure.nonRetryable(`operation ${operationId} not found`, 'operation_not_found');
    const earlier = await db('contracts').where({ assignor_id: op.assignor_id }).whereIn('status', ['SENT', 'SIGNED'])
      .whereNot({ operation_id: operationId }).first('id');
    await db('contracts').insert({
      id: uuidv7(), originator_id: op.originator_id, operation_id: operationId, assignor_id: op.assignor_id, attempt,
      status: 'PENDING', type: earlier ? 'ADDENDUM' : 'FULL_CONTRACT', is_first_contract: !earlier, embedded,
    }).onConflict(['operation_id', 'attempt']).ignore();
    return db('contracts').where({ operation_id: operationId, attempt }).first();
  }

  async function voidPartial(row: ContractRow, errorCode: string): Promise<void> {
    if (row.provider_document_id) await esign.voidDocument(row.provider_document_id).catch(() => undefined);
    await db('contracts').where({ id: row.id }).update({ status: 'ERROR', error_code: errorCode, updated_at: new Date() });
  }

  async function view(row: ContractRow): Promise<ContractDispatchView> {
    const document = await esign.getDocument(row.provider_document_id!);
    const [{ count }] = await db('titles').where({ operation_id: row.operation_id }).count<{ count: number }[]>({ count: '*' });
    return {
      operation_id: row.operation_id,
      contract_id: row.id,
      doc_token: document.docToken,
      lifecycle_status: 'CONTRACT_SENT',
      is_first_contract: row.is_first_contract,
      titles_count: Number(count),
      signers_count: document.signers.length,
      signers_notified: row.embedded ? null : document.signers.length,
      embedded: row.embedded,
      // No sign_url: the view is the update's result, kept in history; the route reads the URLs live.
      signers: document.signers.map((s) => ({ name: s.name, status: s.status })),
    };
  }

  return {
    /**
     * Creates the document, adds the assignor as signer, checks the templates and sets the
     * signer's authentication (advanced for a full contract, on-screen for an addendum). On a
     * failure the partial document is voided, so CONTRACT_ERROR leaves nothing at the provider.
     */
    async dispatchContract({ operationId, embedded, attempt }: { operationId: string; embedded: boolean; attempt: number }): Promise<ContractDispatchView> {
      let row = await reserve(operationId, attempt, embedded);
      if (row.status === 'SENT') return view(row);
      const assignor = await db('assignors').where({ id: row.assignor_id }).first('name', 'email');
      try {
        if (!row.provider_document_id) {
          const document = await esign.createDocument({
            type: row.type, embedded, assignorEmail: assignor.email, reference: row.id,
            callbackUrl: esignCallbackUrl, idempotencyKey: `contract-${row.id}`,
          });
          await db('contracts').where({ id: row.id }).update({ provider_document_id: document.documentId, doc_token: document.docToken, status: 'PENDING' });
          row = { ...row, provider_document_id: document.documentId, doc_token: document.docToken };
        }
        const auth = row.type === 'FULL_CONTRACT' ? 'advanced' : 'on_screen';
        const existing = (await esign.getDocument(row.provider_document_id!)).signers;
        const signers = existing.length > 0 ? existing
          : await esign.addSigners(row.provider_document_id!, [{ name: assignor.name, email: assignor.email }], `contract-${row.id}-signers`);
        await esign.checkTemplates(row.provider_document_id!);
        for (const signer of signers) await esign.updateSigner(row.provider_document_id!, signer.signerId, { auth });
        await db('contracts').where({ id: row.id }).update({ status: 'SENT', signers_count: signers.length, error_code: null, updated_at: new Date() });
        await db('operations').where({ id: operationId }).update({ signers_count: signers.length, contract_type: row.type });
        return await view({ ...row, status: 'SENT' });
      } catch (err) {
        if (err instanceof EsignError && !err.retryable) await voidPartial(row, err.code);
        return failure(err);
      }
    },

    /** Whether every signer has signed, by our rule on the provider's answer (never its spelling). */
    async checkSignatures({ operationId }: { operationId: string }): Promise<{ allSigned: boolean }> {
      const row = await activeContract(db, operationId);
      if (!row?.provider_document_id) return { allSigned: false };
      try {
        const document = await esign.getDocument(row.provider_document_id);
        const allSigned = document.signers.length > 0 && document.signers.every((s) => s.signed);
        if (allSigned) await db('contracts').where({ id: row.id }).update({ status: 'SIGNED', signed_at: new Date(), updated_at: new Date() });
        return { allSigned };
      } catch (err) {
        return failure(err);
      }
    },

    /** Cancellation: the document in force (if any) is voided at the provider. */
    async voidContract({ operationId }: { operationId: string }): Promise<void> {
      const row = await activeContract(db, operationId);
      if (!row) return;
      try {
        if (row.provider_document_id) await esign.voidDocument(row.provider_document_id);
      } catch (err) {
        return failure(err);
      }
      await db('contracts').where({ id: row.id }).update({ status: 'VOIDED', updated_at: new Date() });
    },
  };
}
