import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { NfeCheckOutcome } from '../../domain/sefaz/payout-check';
import type { SefazAdapter } from '../../domain/sefaz/port';
import { keyOfFingerprint } from '../../domain/receivable-identity';
import { NO_PAYER_CONFIRMATION, PayerConfirmation, PayerConfirmationPolicy } from '../../domain/sefaz/payer-confirmation';
import { DEFAULT_NFE_BEYOND_CONSULT_AGE, type NfeBeyondConsultAgePolicy } from '../../domain/sefaz/consult-age';

/** A title of the operation backed by an NF-e key, with who issued it (the assignor, whose certificate asks for the payer's events). */
export interface TitleNfe {
  titleId: string;
  originatorId: string;
  externalId: string;
  key: string;
  /** The issuer: its document, and its delegated certificate when it stored one. */
  assignorId: string;
  issuerDocument: string;
  dueDate: string;
  /** Whether the receivable carried its NF-e XML, verified at creation (title_nfe_xml). */
  provenByXml: boolean;
}

/** The operation's product's policies for the check before the PIX. */
export interface NfePolicies {
  payerConfirmation: PayerConfirmation;
  nfeBeyondConsultAge: NfeBeyondConsultAgePolicy;
}

const NO_PRODUCT: NfePolicies = { payerConfirmation: NO_PAYER_CONFIRMATION, nfeBeyondConsultAge: DEFAULT_NFE_BEYOND_CONSULT_AGE };

/** A stored check, as the operation read shows it. */
export interface StoredNfeCheck extends NfeCheckOutcome {
  operationId: string;
  titleId: string;
  adapter: SefazAdapter;
  checkedAt: Date;
}

interface NfeCheckRow {
  operation_id: string; title_id: string; nfe_key: string; status: NfeCheckOutcome['status']; reason: NfeCheckOutcome['reason']; cstat: string; xmotivo: string;
  payer_event: NfeCheckOutcome['payerEvent']; payer_event_at: Date | null; payer_events: NfeCheckOutcome['payerEvents']; adapter: SefazAdapter; checked_at: Date;
}

/** `nfe_checks`: each check of an operation's NF-e at SEFAZ before its PIX. */
export class NfeChecksRepository {
  constructor(private readonly db: Knex) {}

  /** The operation's titles whose receivable is identified by an NF-e key (the fingerprint holds it). */
  async titleNfes(operationId: string): Promise<TitleNfe[]> {
    const rows: { id: string; originator_id: string; assignor_id: string; external_id: string; receivable_fingerprint: string; document: string; due_date: string; proven: boolean }[] = await this.db('titles')
      .join('operations', 'operations.id', 'titles.operation_id')
      .join('assignors', 'assignors.id', 'operations.assignor_id')
      .leftJoin('title_nfe_xml', 'title_nfe_xml.title_id', 'titles.id')
      .where('titles.operation_id', operationId).whereLike('titles.receivable_fingerprint', 'nfe:%')
      .orderBy('titles.id')
      .select('titles.id', 'titles.originator_id', 'operations.assignor_id', 'titles.external_id', 'titles.receivable_fingerprint', 'titles.due_date', 'assignors.document', this.db.raw('title_nfe_xml.title_id is not null as proven'));
    return rows.map((row) => ({
      titleId: row.id, originatorId: row.originator_id, assignorId: row.assignor_id, externalId: row.external_id, key: keyOfFingerprint(row.receivable_fingerprint)!, issuerDocument: row.document, dueDate: row.due_date, provenByXml: row.proven,
    }));
  }

  /** The operation's product's policies; an operation without a product waits for no one and refuses a 526. */
  async policiesOf(operationId: string): Promise<NfePolicies> {
    const row: { payer_confirmation: PayerConfirmationPolicy; payer_confirmation_deadline_days: number; nfe_beyond_consult_age: NfeBeyondConsultAgePolicy } | undefined = await this.db('operations')
      .joinRaw('join products on products.id::text = operations.product_id and products.originator_id = operations.originator_id').where('operations.id', operationId)
      .first('products.payer_confirmation', 'products.payer_confirmation_deadline_days', 'products.nfe_beyond_consult_age');
    if (!row) return NO_PRODUCT;
    return { payerConfirmation: { policy: row.payer_confirmation, deadlineDays: row.payer_confirmation_deadline_days }, nfeBeyondConsultAge: row.nfe_beyond_consult_age };
  }

  async record(checks: readonly { title: TitleNfe; operationId: string; outcome: NfeCheckOutcome; adapter: SefazAdapter; at: Date }[]): Promise<void> {
    if (checks.length === 0) return;
    await this.db('nfe_checks').insert(checks.map(({ title, operationId, outcome, adapter, at }) => ({
      id: uuidv7(), originator_id: title.originatorId, operation_id: operationId, title_id: title.titleId, nfe_key: outcome.key,
      status: outcome.status, reason: outcome.reason, cstat: outcome.cStat, xmotivo: outcome.xMotivo,
      payer_event: outcome.payerEvent, payer_event_at: outcome.payerEventAt, payer_events: outcome.payerEvents, adapter, checked_at: at,
    })));
  }

  /** Each title's latest check among the operations' (titles never checked are absent); `originatorId` scopes a tenant's read. */
  async latestOf(operationIds: string | readonly string[], originatorId?: string): Promise<Map<string, StoredNfeCheck>> {
    const rows = await this.db('nfe_checks').whereIn('operation_id', typeof operationIds === 'string' ? [operationIds] : [...operationIds])
      .modify((query) => { if (originatorId) query.where({ originator_id: originatorId }); })
      .distinctOn('title_id').orderBy([{ column: 'title_id' }, { column: 'checked_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    return new Map((rows as NfeCheckRow[]).map((row) => [row.title_id, {
      operationId: row.operation_id, titleId: row.title_id, key: row.nfe_key, status: row.status, reason: row.reason, cStat: row.cstat, xMotivo: row.xmotivo,
      payerEvent: row.payer_event, payerEventAt: row.payer_event_at?.toISOString() ?? null, payerEvents: row.payer_events, adapter: row.adapter, checkedAt: row.checked_at,
    }]));
  }
}
