import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { NfeCheckOutcome } from '../../domain/sefaz/payout-check';
import type { SefazAdapter } from '../../domain/sefaz/port';
import { keyOfFingerprint } from '../../domain/receivable-identity';
import { NO_PAYER_CONFIRMATION, PayerConfirmation, PayerConfirmationPolicy } from '../../domain/sefaz/payer-confirmation';

/** A title of the operation backed by an NF-e key, with who issued it (the assignor, whose certificate asks for the payer's events). */
export interface TitleNfe {
  titleId: string;
  originatorId: string;
  externalId: string;
  key: string;
  issuerDocument: string;
  dueDate: string;
}

/** A stored check, as the operation read shows it. */
export interface StoredNfeCheck extends NfeCheckOutcome {
  operationId: string;
  titleId: string;
  adapter: SefazAdapter;
  checkedAt: Date;
}

interface NfeCheckRow {
  operation_id: string; title_id: string; nfe_key: string; status: NfeCheckOutcome['status']; reason: NfeCheckOutcome['reason']; cstat: string; xmotivo: string;
  payer_event: NfeCheckOutcome['payerEvent']; payer_event_at: Date | null; adapter: SefazAdapter; checked_at: Date;
}

/** `nfe_checks`: each check of an operation's NF-e at SEFAZ before its PIX. */
export class NfeChecksRepository {
  constructor(private readonly db: Knex) {}

  /** The operation's titles whose receivable is identified by an NF-e key (the fingerprint holds it). */
  async titleNfes(operationId: string): Promise<TitleNfe[]> {
    const rows: { id: string; originator_id: string; external_id: string; receivable_fingerprint: string; document: string; due_date: string }[] = await this.db('titles')
      .join('operations', 'operations.id', 'titles.operation_id')
      .join('assignors', 'assignors.id', 'operations.assignor_id')
      .where('titles.operation_id', operationId).whereLike('titles.receivable_fingerprint', 'nfe:%')
      .orderBy('titles.id')
      .select('titles.id', 'titles.originator_id', 'titles.external_id', 'titles.receivable_fingerprint', 'titles.due_date', 'assignors.document');
    return rows.map((row) => ({
      titleId: row.id, originatorId: row.originator_id, externalId: row.external_id, key: keyOfFingerprint(row.receivable_fingerprint)!, issuerDocument: row.document, dueDate: row.due_date,
    }));
  }

  /** The operation's product's `payer_confirmation` policy; an operation without a product waits for no one. */
  async payerConfirmationOf(operationId: string): Promise<PayerConfirmation> {
    const row: { payer_confirmation: PayerConfirmationPolicy; payer_confirmation_deadline_days: number } | undefined = await this.db('operations')
      .joinRaw('join products on products.id::text = operations.product_id and products.originator_id = operations.originator_id').where('operations.id', operationId)
      .first('products.payer_confirmation', 'products.payer_confirmation_deadline_days');
    return row ? { policy: row.payer_confirmation, deadlineDays: row.payer_confirmation_deadline_days } : NO_PAYER_CONFIRMATION;
  }

  async record(checks: readonly { title: TitleNfe; operationId: string; outcome: NfeCheckOutcome; adapter: SefazAdapter; at: Date }[]): Promise<void> {
    if (checks.length === 0) return;
    await this.db('nfe_checks').insert(checks.map(({ title, operationId, outcome, adapter, at }) => ({
      id: uuidv7(), originator_id: title.originatorId, operation_id: operationId, title_id: title.titleId, nfe_key: outcome.key,
      status: outcome.status, reason: outcome.reason, cstat: outcome.cStat, xmotivo: outcome.xMotivo,
      payer_event: outcome.payerEvent, payer_event_at: outcome.payerEventAt, adapter, checked_at: at,
    })));
  }

  /** Each title's latest check among the operations' (titles never checked are absent); `originatorId` scopes a tenant's read. */
  async latestOf(operationIds: string | readonly string[], originatorId?: string): Promise<Map<string, StoredNfeCheck>> {
    const rows = await this.db('nfe_checks').whereIn('operation_id', typeof operationIds === 'string' ? [operationIds] : [...operationIds])
      .modify((query) => { if (originatorId) query.where({ originator_id: originatorId }); })
      .distinctOn('title_id').orderBy([{ column: 'title_id' }, { column: 'checked_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    return new Map((rows as NfeCheckRow[]).map((row) => [row.title_id, {
      operationId: row.operation_id, titleId: row.title_id, key: row.nfe_key, status: row.status, reason: row.reason, cStat: row.cstat, xMotivo: row.xmotivo,
      payerEvent: row.payer_event, payerEventAt: row.payer_event_at?.toISOString() ?? null, adapter: row.adapter, checkedAt: row.checked_at,
    }]));
  }
}
