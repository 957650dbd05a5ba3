import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { PixDestination, PixStatus } from '../../domain/pix-transfer';

/** One PIX attempt of an operation (`disbursements` row). */
export interface Disbursement {
  id: string;
  originatorId: string;
  operationId: string;
  attempt: number;
  idempotencyKey: string;
  amount: string;
  status: PixStatus;
  providerPaymentId: string | null;
  settledAmount: string | null;
  settledAt: Date | null;
  rejectionReason: string | null;
}

interface DisbursementRow {
  id: string;
  originator_id: string;
  operation_id: string;
  attempt: number;
  idempotency_key: string;
  amount: string;
  status: PixStatus;
  provider_payment_id: string | null;
  settled_amount: string | null;
  settled_at: Date | null;
  rejection_reason: string | null;
}

const toDisbursement = (row: DisbursementRow): Disbursement => ({
  id: row.id, originatorId: row.originator_id, operationId: row.operation_id, attempt: row.attempt, idempotencyKey: row.idempotency_key, amount: row.amount,
  status: row.status, providerPaymentId: row.provider_payment_id, settledAmount: row.settled_amount, settledAt: row.settled_at,
  rejectionReason: row.rejection_reason,
});

/** Who is paid and how much: the operation's liquid value to the assignor's primary account. */
export interface PixOrder {
  originatorId: string;
  liquidValue: string;
  disbursementMethod: string | null;
  recipient: { name: string; document: string; email: string; destination: PixDestination };
}

function destinationOf(assignor: Record<string, string | null>): PixDestination {
  return assignor.disbursement_method === 'bank_account'
    ? { kind: 'bank_account', code: assignor.bank_code!, agency: assignor.bank_agency!, account: assignor.bank_account!, type: (assignor.bank_account_type ?? 'CC') as 'CC' | 'SA' | 'CP' }
    : { kind: 'pix_key', key: assignor.pix_key_document ?? assignor.document! };
}

/** Disbursements across originators, addressed by operation and attempt (the workflow knows no tenant). */
export class DisbursementsRepository {
  constructor(private readonly db: Knex) {}

  /** What reconciliation compares the settlement with. */
  async amountOf(operationId: string): Promise<Pick<PixOrder, 'liquidValue' | 'disbursementMethod'>> {
    const op = await this.db('operations').where({ id: operationId }).first('opr_net_present_liquid_value', 'disbursement_method');
    return { liquidValue: op.opr_net_present_liquid_value, disbursementMethod: op.disbursement_method };
  }

  async orderOf(operationId: string): Promise<PixOrder> {
    const op = await this.db('operations').where({ id: operationId }).first('originator_id', 'assignor_id', 'opr_net_present_liquid_value', 'disbursement_method');
    const assignor = await this.db('assignors').where({ id: op.assignor_id }).first();
    return {
      originatorId: op.originator_id, liquidValue: op.opr_net_present_liquid_value, disbursementMethod: op.disbursement_method,
      recipient: { name: assignor.name, document: assignor.pix_key_document ?? assignor.document, email: assignor.email, destination: destinationOf(assignor) },
    };
  }

  /** The row of (operation, attempt), created PENDING on first call so a retried activity resumes the same payment. */
  async reserve(operationId: string, attempt: number, idempotencyKey: string, order: PixOrder): Promise<Disbursement> {
    await this.db('disbursements').insert({
      id: uuidv7(), originator_id: order.originatorId, operation_id: operationId, attempt, idempotency_key: idempotencyKey,
      amount: order.liquidValue, status: 'PENDING',
    }).onConflict(['operation_id', 'attempt']).ignore();
    return (await this.byAttempt(operationId, attempt))!;
  }

  async byAttempt(operationId: string, attempt: number): Promise<Disbursement | undefined> {
    const row = await this.db('disbursements').where({ operation_id: operationId, attempt }).first();
    return row && toDisbursement(row);
  }

  /** True when this call recorded the order (a retried activity finds it recorded). */
  async ordered(id: string, providerPaymentId: string): Promise<boolean> {
    return (await this.db('disbursements').where({ id }).whereNull('provider_payment_id').update({ provider_payment_id: providerPaymentId })) > 0;
  }

  /** Settles a PENDING row; true when this call did (a retried activity finds it settled). */
  async settle(id: string, status: PixStatus, settledAmount: string | null, reason: string | null): Promise<boolean> {
    return (await this.db('disbursements').where({ id, status: 'PENDING' }).update({
      status, settled_amount: settledAmount, rejection_reason: reason, updated_at: new Date(),
      settled_at: status === 'PENDING' ? null : new Date(),
    })) > 0;
  }
}
