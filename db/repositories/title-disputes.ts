import type { Knex } from 'knex';
import { keyOfFingerprint } from '../../domain/receivable-identity';
import type { TitleDispute } from '../../domain/sefaz/title-dispute';
import type { TitleNfe } from './nfe-checks';
import { recordTitleEvent } from './record-events';

/** A title the payer still owes, of a paid operation, backed by an NF-e key, not disputed yet. */
export interface OpenTitleNfe extends Omit<TitleNfe, 'provenByXml'> {
  operationId: string;
}

/** `titles.dispute_*`: the daily re-check of open titles' NF-e after payout, and the dispute it finds. */
export class TitleDisputesRepository {
  constructor(private readonly db: Knex) {}

  /** Open titles (waiting for or partly paid by their payer) whose NF-e key has not put them in dispute yet, oldest first. */
  async undisputedOpen(): Promise<OpenTitleNfe[]> {
    const rows: { id: string; operation_id: string; originator_id: string; assignor_id: string; external_id: string; receivable_fingerprint: string; document: string; due_date: string }[] = await this.db('titles')
      .join('operations', 'operations.id', 'titles.operation_id')
      .join('assignors', 'assignors.id', 'operations.assignor_id')
      .whereIn('titles.status', ['WAITING_PAYMENT', 'PARTIALLY_PAID']).whereNull('titles.disputed_at')
      .whereLike('titles.receivable_fingerprint', 'nfe:%')
      .orderBy('titles.id')
      .select('titles.id', 'titles.operation_id', 'titles.originator_id', 'operations.assignor_id', 'titles.external_id', 'titles.receivable_fingerprint', 'titles.due_date', 'assignors.document');
    return rows.map((row) => ({
      titleId: row.id, operationId: row.operation_id, originatorId: row.originator_id, assignorId: row.assignor_id, externalId: row.external_id,
      key: keyOfFingerprint(row.receivable_fingerprint)!, issuerDocument: row.document, dueDate: row.due_date,
    }));
  }

  /** Puts the title in dispute with its `title.disputed` event, once: false when it already was. */
  async dispute(title: OpenTitleNfe, dispute: TitleDispute, at: Date): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const marked = await trx('titles').where({ id: title.titleId }).whereNull('disputed_at').update({
        dispute_reason: dispute.reason, dispute_cstat: dispute.cStat, dispute_xmotivo: dispute.xMotivo, dispute_payer_event: dispute.payerEvent, disputed_at: at,
      });
      if (marked === 0) return false;
      await recordTitleEvent(trx, { id: title.titleId, originatorId: title.originatorId, operationId: title.operationId, externalId: title.externalId }, 'title.disputed', {
        nfe_key: title.key, reason: dispute.reason, cstat: dispute.cStat, xmotivo: dispute.xMotivo, payer_event: dispute.payerEvent, disputed_at: at.toISOString(),
      }, 0, at);
      return true;
    });
  }
}
