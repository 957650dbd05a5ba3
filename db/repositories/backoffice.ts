import type { Knex } from 'knex';
import type { OperationRow } from './operations';
import type { AssignorRow } from './assignors';
import type { Contract } from './contracts';
import type { Disbursement } from './disbursements';
import type { TitlePaymentRow } from './title-payments';
import { fromColumns } from './columns';
import { paged } from './pagination';

/** A state and the latest moment an operation may have entered it to count as stuck. */
export interface StuckCutoff {
  status: string;
  enteredBefore: Date;
  /** Only operations some title of which has a `pending` latest NF-e check. */
  nfeCheckPending?: boolean;
  /** Only operations some open title of which is in dispute. */
  titleDisputed?: boolean;
}

export interface StuckItem extends OperationRow {
  originatorName: string;
  assignorName: string;
}

/** The assignor as the operation page shows it: who, and where the PIX goes. */
export type DetailAssignor = Pick<AssignorRow, 'id' | 'type' | 'document' | 'name' | 'tradeName' | 'email' | 'disbursementMethod'
  | 'pixKeyDocument' | 'bankCode' | 'bankAgency' | 'bankAccount' | 'bankAccountType'>;

/** One dispatch attempt of the contract, with what went wrong and when it moved. */
export type ContractAttempt = Pick<Contract, 'id' | 'attempt' | 'status' | 'type' | 'isFirstContract' | 'embedded'> & {
  signersCount: number;
  errorCode: string | null;
  signedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

/** One PIX attempt, with when it was made and last moved. */
export type DisbursementAttempt = Pick<Disbursement, 'id' | 'attempt' | 'amount' | 'status' | 'settledAmount' | 'rejectionReason' | 'settledAt'> & {
  createdAt: Date;
  updatedAt: Date;
};

/** A payer's payment of one of the operation's titles, with the title's own reference. */
export type PayerPayment = Pick<TitlePaymentRow, 'id' | 'titleId' | 'externalId' | 'amount' | 'remainingAfter' | 'paidAt' | 'channel' | 'createdAt'> & {
  titleExternalId: string;
};

/** An event the operation's webhooks deliver, its `data` as delivered. */
export interface TimelineEvent {
  eventId: string;
  eventType: string;
  data: Record<string, unknown>;
  occurredAt: Date;
}

/** One POST of an event to one of the originator's endpoints. */
export interface TimelineDelivery {
  eventId: string;
  webhookId: string;
  url: string;
  attemptNumber: number;
  deliveredSuccessfully: boolean;
  responseStatusCode: number | null;
  error: string | null;
  createdAt: Date;
}

/** What the operation page shows beside the operation itself, each list oldest first. */
export interface OperationDetailRows {
  originator: { id: string; name: string };
  assignor: DetailAssignor;
  contracts: ContractAttempt[];
  disbursements: DisbursementAttempt[];
  payments: PayerPayment[];
  events: TimelineEvent[];
  /** Every POST of those events to the originator's endpoints, oldest first. */
  deliveries: TimelineDelivery[];
}

export interface QueueFilters {
  originatorId?: string;
  assignorDocument?: string;
  minAmount?: string;
  maxAmount?: string;
  createdFrom?: string;
  createdTo?: string;
}

export interface QueueItem extends OperationRow {
  originatorName: string;
  assignorName: string;
  assignorDocument: string;
}

const everyRow = <T>(rows: Record<string, unknown>[]) => rows.map((row) => fromColumns<T>(row));

/**
 * The backoffice sees across tenants by design (DESIGN.md §8: staff are cross-tenant). This is
 * the one repository that is not tenant-scoped; only backoffice routes use it.
 */
export class BackofficeRepository {
  constructor(private readonly db: Knex) {}

  private queue(filters: QueueFilters) {
    const query = this.db('operations')
      .join('originators', 'originators.id', 'operations.originator_id')
      .join('assignors', 'assignors.id', 'operations.assignor_id')
      .where('operations.lifecycle_status', 'WAITING_APPROVAL');
    if (filters.originatorId) query.where('operations.originator_id', filters.originatorId);
    if (filters.assignorDocument) query.where('assignors.document', filters.assignorDocument);
    if (filters.minAmount) query.where('operations.opr_requested_net_future_value', '>=', filters.minAmount);
    if (filters.maxAmount) query.where('operations.opr_requested_net_future_value', '<=', filters.maxAmount);
    if (filters.createdFrom) query.where('operations.created_at', '>=', filters.createdFrom);
    if (filters.createdTo) query.where('operations.created_at', '<=', filters.createdTo);
    return query;
  }

  /** Oldest first: a queue is worked from its head. */
  async approvalQueue(filters: QueueFilters, limit: number, offset: number): Promise<{ items: QueueItem[]; total: number }> {
    const { items, total } = await paged<Record<string, unknown>>(() => this.queue(filters), (query) => query
      .select('operations.*', 'originators.name as originator_name', 'assignors.name as assignor_name', 'assignors.document as assignor_document')
      .orderBy('operations.created_at').orderBy('operations.id'), limit, offset);
    return { items: items.map((row) => fromColumns<QueueItem>(row)), total };
  }

  async operation(id: string): Promise<OperationRow | undefined> {
    const row = await this.db('operations').where({ id }).first();
    return row ? fromColumns<OperationRow>(row) : undefined;
  }

  async originators(): Promise<{ id: string; name: string }[]> {
    return this.db('originators').select('id', 'name').orderBy('name').orderBy('id');
  }

  /**
   * Operations waiting in one of the cutoffs' states since before its moment, longest waiting
   * first. `updated_at` is when the row last moved: the workflow's read-model writes touch it on
   * transitions only.
   */
  async stuck(cutoffs: StuckCutoff[], limit: number, offset: number): Promise<{ items: StuckItem[]; total: number }> {
    const filtered = () => this.db('operations')
      .join('originators', 'originators.id', 'operations.originator_id')
      .join('assignors', 'assignors.id', 'operations.assignor_id')
      .where((outer) => {
        for (const cutoff of cutoffs) {
          outer.orWhere((inner) => inner.where('operations.lifecycle_status', cutoff.status).where('operations.updated_at', '<=', cutoff.enteredBefore)
            .modify((query) => {
              if (cutoff.nfeCheckPending) query.whereExists(this.latestNfeCheckPending());
              if (cutoff.titleDisputed) query.whereExists(this.openTitleDisputed());
            }));
        }
      });
    const { items, total } = await paged<Record<string, unknown>>(filtered, (query) => query
      .select('operations.*', 'originators.name as originator_name', 'assignors.name as assignor_name')
      .orderBy('operations.updated_at').orderBy('operations.id'), limit, offset);
    return { items: items.map((row) => fromColumns<StuckItem>(row)), total };
  }

  /** Some title of the operation whose latest NF-e check is `pending`. */
  private latestNfeCheckPending(): Knex.QueryBuilder {
    return this.db('nfe_checks as c').whereRaw('c.operation_id = operations.id').where('c.status', 'pending')
      .whereNotExists(this.db('nfe_checks as n').whereRaw('n.title_id = c.title_id').whereRaw('(n.checked_at, n.id) > (c.checked_at, c.id)'));
  }

  /** Some open title of the operation in dispute. */
  private openTitleDisputed(): Knex.QueryBuilder {
    return this.db('titles as d').whereRaw('d.operation_id = operations.id').whereNotNull('d.disputed_at').whereIn('d.status', ['WAITING_PAYMENT', 'PARTIALLY_PAID']);
  }

  async detailOf(op: OperationRow): Promise<OperationDetailRows> {
    const [originator, assignor, contracts, disbursements, payments, events] = await Promise.all([
      this.db('originators').where({ id: op.originatorId }).first('id', 'name'),
      this.db('assignors').where({ id: op.assignorId })
        .first('id', 'type', 'document', 'name', 'trade_name', 'email', 'disbursement_method', 'pix_key_document', 'bank_code', 'bank_agency', 'bank_account', 'bank_account_type'),
      this.db('contracts').where({ operation_id: op.id }).orderBy('attempt')
        .select('id', 'attempt', 'status', 'type', 'is_first_contract', 'embedded', 'signers_count', 'error_code', 'signed_at', 'created_at', 'updated_at'),
      this.db('disbursements').where({ operation_id: op.id }).orderBy('attempt')
        .select('id', 'attempt', 'amount', 'status', 'settled_amount', 'rejection_reason', 'settled_at', 'created_at', 'updated_at'),
      this.db('title_payments').join('titles', 'titles.id', 'title_payments.title_id').where('titles.operation_id', op.id)
        .orderBy('title_payments.created_at')
        .select('title_payments.id', 'title_payments.title_id', 'titles.external_id as title_external_id', 'title_payments.external_id',
          'title_payments.amount', 'title_payments.remaining_after', 'title_payments.paid_at', 'title_payments.channel', 'title_payments.created_at'),
      this.db('events').where({ originator_id: op.originatorId }).whereRaw("data->>'operation_id' = ?", [op.id])
        .orderBy('occurred_at').orderBy('created_at').select('event_id', 'event_type', 'data', 'occurred_at'),
    ]);
    const deliveries = await this.db('webhook_deliveries').whereIn('event_id', events.map((e: { event_id: string }) => e.event_id))
      .orderBy('created_at').orderBy('attempt_number')
      .select('event_id', 'subscription_id as webhook_id', 'url', 'attempt_number', 'delivered_successfully', 'response_status_code', 'error', 'created_at');
    return {
      originator,
      assignor: fromColumns<DetailAssignor>(assignor),
      contracts: everyRow<ContractAttempt>(contracts),
      disbursements: everyRow<DisbursementAttempt>(disbursements),
      payments: everyRow<PayerPayment>(payments),
      events: everyRow<TimelineEvent>(events),
      deliveries: everyRow<TimelineDelivery>(deliveries),
    };
  }

  /** The e-mail of each user id given (staff or originator users), to name people rather than ids. */
  async emailsOfUsers(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; email: string }[] = await this.db('users').whereIn('id', [...ids]).select('id', 'email');
    return new Map(rows.map((row) => [row.id, row.email]));
  }
}
