import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { fromColumns } from './columns';

export type PixChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export interface PixChargeRow {
  id: string;
  originatorId: string;
  titleId: string;
  txid: string;
  status: PixChargeStatus;
  revision: number;
  amountBrl: string;
  brCode: string;
  location: string;
  expiresAt: Date;
}

/** What a title's charge is issued from: the title, its payer, its policy's late terms and the originator's key. */
export interface ChargeTarget {
  titleId: string;
  originatorId: string;
  status: string;
  outstandingBalance: string;
  dueDate: string;
  graceDays: number;
  payerDocument: string;
  payerName: string;
  lateFeePct: string;
  lateInterestMonthlyPct: string;
  collectionPixKey: string | null;
}

/**
 * Titles' PIX charges across originators: the workflow and the PSP's webhook know a title or a
 * txid, not a tenant (like TrackedTitlesRepository). Integrators read them through the title.
 */
export class PixChargesRepository {
  constructor(private readonly db: Knex) {}

  /** The operation's titles still waiting for payment, with what their charges need. */
  async targetsOfOperation(operationId: string): Promise<ChargeTarget[]> {
    const rows = await this.db('titles')
      .join('operations', 'operations.id', 'titles.operation_id')
      .join('payers', 'payers.id', 'titles.payer_id')
      .join('originators', 'originators.id', 'titles.originator_id')
      .leftJoin('policies', 'policies.id', 'operations.policy_id')
      .select(
        'titles.id as title_id', 'titles.originator_id', 'titles.status', 'titles.outstanding_balance', 'titles.due_date',
        'payers.document as payer_document', 'payers.name as payer_name', 'originators.collection_pix_key',
        this.db.raw('coalesce(policies.grace_days, 0) as grace_days'),
        this.db.raw('coalesce(policies.late_fee_pct, 2)::text as late_fee_pct'),
        this.db.raw('coalesce(policies.late_interest_monthly_pct, 1)::text as late_interest_monthly_pct'),
      )
      .where('titles.operation_id', operationId).whereIn('titles.status', ['WAITING_PAYMENT', 'PARTIALLY_PAID']).orderBy('titles.id');
    return rows.map((row: Record<string, unknown>) => fromColumns<ChargeTarget>(row));
  }

  async ofTitle(titleId: string): Promise<PixChargeRow | undefined> {
    const row = await this.db('pix_charges').where({ title_id: titleId }).first();
    return row ? fromColumns<PixChargeRow>(row) : undefined;
  }

  async byTxid(txid: string): Promise<PixChargeRow | undefined> {
    const row = await this.db('pix_charges').where({ txid }).first();
    return row ? fromColumns<PixChargeRow>(row) : undefined;
  }

  /** Once per title: a second insert (a retried activity) keeps the first. */
  async insert(charge: Omit<PixChargeRow, 'id'>): Promise<void> {
    await this.db('pix_charges').insert({
      id: uuidv7(), originator_id: charge.originatorId, title_id: charge.titleId, txid: charge.txid, status: charge.status, revision: charge.revision,
      amount_brl: charge.amountBrl, br_code: charge.brCode, location: charge.location, expires_at: charge.expiresAt,
    }).onConflict('title_id').ignore();
  }

  /** The PSP's latest answer; an older revision never overwrites a newer one. */
  async update(txid: string, change: Pick<PixChargeRow, 'status' | 'revision' | 'amountBrl'>): Promise<void> {
    await this.db('pix_charges').where({ txid }).where('revision', '<=', change.revision)
      .update({ status: change.status, revision: change.revision, amount_brl: change.amountBrl, updated_at: new Date() });
  }
}
