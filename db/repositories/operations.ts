import type { TitleDisputeReason } from '../../domain/sefaz/title-dispute';
import type { Knex } from 'knex';
import { fromColumns } from './columns';
import { newestFirst, paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';
import type { PixChargeStatus } from './pix-charges';
import type { LifecycleStatus } from '../../domain/operation-lifecycle';
import type { FeeSource } from '../../domain/pricing/fees';
import type { TitleRegistration } from '../../domain/escriturador/registration';
import { registrationOf, REGISTRATION_COLUMN } from './title-registrations';

export interface OperationRow {
  id: string;
  originatorId: string;
  displayNumber: string;
  assignorId: string;
  policyId: string | null;
  productId: string | null;
  channel: 'direct' | 'stock';
  lifecycleStatus: LifecycleStatus;
  needsBackofficeApproval: boolean;
  embeddedSignature: boolean;
  hasPartialAnticipations: boolean;
  feeHierarchy: string;
  disbursementMethod: string | null;
  oprGrossFutureValue: string;
  oprNetFutureValue: string;
  oprRequestedNetFutureValue: string;
  oprPresentValueDiscount: string;
  oprNetLiquidValue: string;
  otherDebtDiscounts: string;
  oprNetPresentLiquidValue: string;
  averageDaysInAdvance: number;
  weightedAvgDays: string;
  floatingDays: number;
  /** Priced by every creation (api/operations/creation/write.ts), though the column allows null. */
  cetMonthlyPct: string;
  cetAnnualPct: string;
  contractType: string;
  signersCount: number;
  denyReason: string | null;
  cancelReason: string | null;
  /** Why it was cancelled, as a code (`requested`, `nfe_cancelled`, ...); null before that was recorded. */
  cancellationReason: string | null;
  approvedAt: Date | null;
  /** Why it waits for a human whatever its amount (double assignment), or null. */
  reviewReason: { code: string; message: string; external_ids: string[] } | null;
  /** Four-eyes: 2 when the policy's dual-approval threshold was passed at creation. */
  approvalsRequired: 1 | 2;
  /** The sandbox test clock it lives on, or null. */
  testClockId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TitleRow {
  id: string;
  operationId: string;
  payerId: string;
  stockItemId: string | null;
  externalId: string;
  identifier: string | null;
  backingType: string;
  status: string;
  grossFutureValue: string;
  netFutureValue: string;
  requestedNetFutureValue: string;
  presentValueDiscount: string;
  netPresentLiquidValue: string;
  outstandingBalance: string;
  paidAmount: string;
  fixedDiscountBrl: string | null;
  dueDate: string;
  qtyDaysAdvanced: number;
  feeSource: FeeSource;
  monthlyRatePct: string | null;
  discountPct: string | null;
  isPartial: boolean;
  payerDocument: string;
  payerName: string;
  /** The title's PIX charge, all null when none was issued. */
  pixTxid: string | null;
  pixStatus: PixChargeStatus | null;
  pixBrCode: string | null;
  pixExpiresAt: Date | null;
  /** Its operation's policy's grace days (null without a policy). */
  graceDays: number | null;
  /** What identifies it as an invoice (`nfe:<key>` when an NF-e key backs it), or null. */
  receivableFingerprint: string | null;
  /** Set, all but the payer event together, once the daily re-check after payout put the title in dispute. */
  disputeReason: TitleDisputeReason | null;
  disputeCstat: string | null;
  disputeXmotivo: string | null;
  disputePayerEvent: 'unknown_operation' | 'not_performed' | null;
  disputedAt: Date | null;
  /** Our act at the escriturador on its duplicata, null when none is recorded. */
  registration: TitleRegistration | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A title's columns with its payer's and its PIX charge's. */
const TITLE_COLUMNS = [
  'titles.*', 'payers.document as payer_document', 'payers.name as payer_name',
  'pix_charges.txid as pix_txid', 'pix_charges.status as pix_status', 'pix_charges.br_code as pix_br_code', 'pix_charges.expires_at as pix_expires_at',
];

function titleOfRow(row: Record<string, unknown>): TitleRow {
  const title = fromColumns<Omit<TitleRow, 'registration'> & { registration: Parameters<typeof registrationOf>[0] | null }>(row);
  return { ...title, registration: title.registration === null ? null : registrationOf(title.registration) };
}

/** The grace days of the title's operation's policy. */
const GRACE_DAYS = '(select p.grace_days from operations as o join policies as p on p.id = o.policy_id where o.id = titles.operation_id) as grace_days';

export interface TitleFilters {
  status?: string;
  operationId?: string;
  payerDocument?: string;
  dueFrom?: string;
  dueTo?: string;
}

export class OperationsRepository extends TenantScopedRepository {
  // The reads integrators poll are named prepared statements: parsed and planned once per connection.
  async byId(id: string): Promise<OperationRow | undefined> {
    const row = await this.scoped('operations').where({ id }).first().options({ name: 'operation_by_id' });
    return row ? fromColumns<OperationRow>(row) : undefined;
  }

  /**
   * A page's operation ids, newest first, and the count before pagination, in one round trip: the
   * list route renders each operation apart (most are kept rendered). One named statement per
   * shape, with or without the status.
   */
  async pageIds(limit: number, offset: number, lifecycleStatus?: string): Promise<{ ids: string[]; total: number }> {
    const filtered = () => {
      const query = this.scoped('operations');
      return lifecycleStatus ? query.where({ lifecycle_status: lifecycleStatus }) : query;
    };
    // Limit and offset as bindings always: knex leaves out `offset 0`, which would change the named statement's text.
    const ids = this.db.raw('array(? limit ? offset ?)', [newestFirst()(filtered().select(this.db.raw('id::text'))), limit, offset]);
    const [row] = await this.db.select(this.db.raw('(?)::int as total', [filtered().count('*')]), this.db.raw('? as ids', [ids]))
      .options({ name: lifecycleStatus ? 'operation_page_of_status' : 'operation_page' });
    return { ids: row.ids, total: row.total };
  }

  async byIds(ids: readonly string[]): Promise<OperationRow[]> {
    const rows = await this.scoped('operations').whereRaw('id = any(?::uuid[])', [[...ids]]).options({ name: 'operations_by_ids' });
    return rows.map((row: Record<string, unknown>) => fromColumns<OperationRow>(row));
  }

  private titles() {
    return this.scoped('titles').join('payers', 'payers.id', 'titles.payer_id').leftJoin('pix_charges', 'pix_charges.title_id', 'titles.id')
      .select([...TITLE_COLUMNS, this.db.raw(GRACE_DAYS), this.db.raw(REGISTRATION_COLUMN)]);
  }

  async titlesOf(operationIds: readonly string[]): Promise<TitleRow[]> {
    const rows = await this.titles().whereRaw('titles.operation_id = any(?::uuid[])', [[...operationIds]]).orderBy('titles.id').options({ name: 'titles_of_operations' });
    return rows.map(titleOfRow);
  }

  async titleCount(operationId: string): Promise<number> {
    const [{ count }] = await this.scoped('titles').where({ operation_id: operationId }).count<{ count: string }[]>({ count: '*' });
    return Number(count);
  }

  async titleById(id: string): Promise<TitleRow | undefined> {
    const row = await this.titles().where('titles.id', id).first();
    return row ? titleOfRow(row) : undefined;
  }

  async listTitles(filters: TitleFilters, limit: number, offset: number): Promise<{ items: TitleRow[]; total: number }> {
    const filtered = () => {
      const query = this.scoped('titles').join('payers', 'payers.id', 'titles.payer_id');
      if (filters.status) query.where('titles.status', filters.status);
      if (filters.operationId) query.where('titles.operation_id', filters.operationId);
      if (filters.payerDocument) query.where('payers.document', filters.payerDocument);
      if (filters.dueFrom) query.where('titles.due_date', '>=', filters.dueFrom);
      if (filters.dueTo) query.where('titles.due_date', '<=', filters.dueTo);
      return query;
    };
    const withPayer = (query: Knex.QueryBuilder) => newestFirst('titles')(query.leftJoin('pix_charges', 'pix_charges.title_id', 'titles.id').select([...TITLE_COLUMNS, this.db.raw(GRACE_DAYS), this.db.raw(REGISTRATION_COLUMN)]));
    const { items, total } = await paged<Record<string, unknown>>(filtered, withPayer, limit, offset);
    return { items: items.map(titleOfRow), total };
  }
}
