import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { ContractType } from '../../domain/contract-type';

export type ContractStatus = 'PENDING' | 'SENT' | 'SIGNED' | 'ERROR' | 'VOIDED';

/** One dispatch attempt of an operation's contract (`contracts` row). */
export interface Contract {
  id: string;
  originatorId: string;
  operationId: string;
  assignorId: string;
  attempt: number;
  status: ContractStatus;
  type: ContractType;
  isFirstContract: boolean;
  embedded: boolean;
  providerDocumentId: string | null;
  docToken: string | null;
}

interface ContractRow {
  id: string;
  originator_id: string;
  operation_id: string;
  assignor_id: string;
  attempt: number;
  status: ContractStatus;
  type: ContractType;
  is_first_contract: boolean;
  embedded: boolean;
  provider_document_id: string | null;
  doc_token: string | null;
}

const toContract = (row: ContractRow): Contract => ({
  id: row.id, originatorId: row.originator_id, operationId: row.operation_id, assignorId: row.assignor_id, attempt: row.attempt,
  status: row.status, type: row.type, isFirstContract: row.is_first_contract, embedded: row.embedded,
  providerDocumentId: row.provider_document_id, docToken: row.doc_token,
});

/** What a dispatch needs of its operation and assignor. */
export interface DispatchParty {
  originatorId: string;
  assignorId: string;
  assignorName: string;
  assignorEmail: string;
}

/**
 * Contracts across originators: the worker addresses them by operation (its workflow knows no
 * tenant), the api after it has checked the operation is the caller's.
 */
export class ContractsRepository {
  constructor(private readonly db: Knex) {}

  /** The contract in force for an operation: its latest dispatch that neither failed nor was voided. */
  async active(operationId: string): Promise<Contract | undefined> {
    const row = await this.db('contracts').where({ operation_id: operationId }).whereIn('status', ['PENDING', 'SENT', 'SIGNED'])
      .orderBy('attempt', 'desc').first();
    return row && toContract(row);
  }

  async partyOf(operationId: string): Promise<DispatchParty | undefined> {
    const row = await this.db('operations').join('assignors', 'assignors.id', 'operations.assignor_id').where('operations.id', operationId)
      .first('operations.originator_id', 'operations.assignor_id', 'assignors.name', 'assignors.email');
    return row && { originatorId: row.originator_id, assignorId: row.assignor_id, assignorName: row.name, assignorEmail: row.email };
  }

  /**
   * The row of (operation, attempt), created PENDING on first call so a retried activity resumes
   * the same dispatch. A full contract for the assignor's first, an addendum once one was sent.
   */
  async reserve(operationId: string, attempt: number, embedded: boolean, party: DispatchParty): Promise<Contract> {
    const earlier = await this.db('contracts').where({ assignor_id: party.assignorId }).whereIn('status', ['SENT', 'SIGNED'])
      .whereNot({ operation_id: operationId }).first('id');
    await this.db('contracts').insert({
      id: uuidv7(), originator_id: party.originatorId, operation_id: operationId, assignor_id: party.assignorId, attempt,
      status: 'PENDING', type: earlier ? 'ADDENDUM' : 'FULL_CONTRACT', is_first_contract: !earlier, embedded,
    }).onConflict(['operation_id', 'attempt']).ignore();
    return toContract(await this.db('contracts').where({ operation_id: operationId, attempt }).first());
  }

  async documentCreated(id: string, providerDocumentId: string, docToken: string): Promise<void> {
    await this.db('contracts').where({ id }).update({ provider_document_id: providerDocumentId, doc_token: docToken, status: 'PENDING' });
  }

  /** Sent with its signers; the operation's read model learns how many and which kind. */
  async sent(contract: Contract, signersCount: number): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('contracts').where({ id: contract.id }).update({ status: 'SENT', signers_count: signersCount, error_code: null, updated_at: new Date() });
      await trx('operations').where({ id: contract.operationId }).update({ signers_count: signersCount, contract_type: contract.type });
    });
  }

  async signed(id: string): Promise<void> {
    await this.db('contracts').where({ id }).update({ status: 'SIGNED', signed_at: new Date(), updated_at: new Date() });
  }

  async failed(id: string, errorCode: string): Promise<void> {
    await this.db('contracts').where({ id }).update({ status: 'ERROR', error_code: errorCode, updated_at: new Date() });
  }

  async voided(id: string): Promise<void> {
    await this.db('contracts').where({ id }).update({ status: 'VOIDED', updated_at: new Date() });
  }
}
