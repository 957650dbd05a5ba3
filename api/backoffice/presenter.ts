import type { OperationRow } from '../../db/repositories/operations';
import type {
  ContractAttempt, DetailAssignor, DisbursementAttempt, OperationDetailRows, PayerPayment, TimelineDelivery, TimelineEvent,
} from '../../db/repositories/backoffice';
import type { TestClockRow } from '../../db/repositories/test-clocks';
import type { Schema } from '../openapi/contract-types';
import { presentTestClock } from '../test-clocks/routes';
import type { ApprovalProgress } from './approval-progress';

type BackofficeOperation = Schema<'BackofficeOperation'>;

/**
 * The page has always served the assignor's PIX key and bank account beside the fields the
 * document lists (its `assignor` allows more properties); typing the page keeps the answer as it was.
 */
type PageAssignor = BackofficeOperation['assignor'] & {
  pix_key_document: string | null;
  bank_code: string | null;
  bank_agency: string | null;
  bank_account: string | null;
  bank_account_type: string | null;
};

/** The signers of the contract in force as the provider reads them now; `error` when it could not be asked. */
export interface LiveSigners {
  documentStatus: string | null;
  signers: { name: string; status: string; signed: boolean }[] | null;
  error: 'esign_unavailable' | null;
}

/** Everything `GET /v1/backoffice/operations/{id}` shows, read and decided before it is rendered. */
export interface OperationPage {
  /** The operation as integrators read it. */
  operation: Schema<'Operation'>;
  decision: Pick<OperationRow, 'approvedAt' | 'denyReason' | 'cancelReason'>;
  progress: ApprovalProgress;
  rows: OperationDetailRows;
  signers: LiveSigners;
  /** The e-mail of the user each event names, by event id. */
  actorEmails: ReadonlyMap<string, string>;
  temporalWebUrl: string | null;
  clock: TestClockRow | undefined;
}

const iso = (moment: Date | null) => moment?.toISOString() ?? null;

function presentAssignor(a: DetailAssignor): PageAssignor {
  return {
    id: a.id, type: a.type, document: a.document, name: a.name, trade_name: a.tradeName,
    email: a.email,
    disbursement_method: a.disbursementMethod, pix_key_document: a.pixKeyDocument,
    bank_code: a.bankCode, bank_agency: a.bankAgency, bank_account: a.bankAccount, bank_account_type: a.bankAccountType,
  };
}

function presentContract(c: ContractAttempt): BackofficeOperation['contracts'][number] {
  return {
    id: c.id, attempt: c.attempt,
    status: c.status,
    type: c.type, is_first_contract: c.isFirstContract, embedded: c.embedded, signers_count: c.signersCount, error_code: c.errorCode,
    signed_at: iso(c.signedAt), created_at: c.createdAt.toISOString(), updated_at: c.updatedAt.toISOString(),
  };
}

function presentDisbursement(d: DisbursementAttempt): BackofficeOperation['disbursements'][number] {
  return {
    id: d.id, attempt: d.attempt,
    amount: d.amount,
    status: d.status, settled_amount: d.settledAmount, rejection_reason: d.rejectionReason, settled_at: iso(d.settledAt),
    created_at: d.createdAt.toISOString(), updated_at: d.updatedAt.toISOString(),
  };
}

function presentPayment(p: PayerPayment): BackofficeOperation['payer_payments'][number] {
  return {
    id: p.id, title_id: p.titleId, title_external_id: p.titleExternalId, external_id: p.externalId, amount: p.amount,
    remaining_after: p.remainingAfter,
    paid_at: p.paidAt.toISOString(), channel: p.channel, created_at: p.createdAt.toISOString(),
  };
}

type PageDelivery = NonNullable<BackofficeOperation['timeline'][number]['deliveries']>[number];

function presentDelivery(d: TimelineDelivery): PageDelivery {
  return {
    webhook_id: d.webhookId,
    url: d.url, attempt_number: d.attemptNumber, delivered_successfully: d.deliveredSuccessfully,
    response_status_code: d.responseStatusCode, error: d.error, created_at: d.createdAt.toISOString(),
  };
}

function presentEvent(e: TimelineEvent, page: OperationPage): BackofficeOperation['timeline'][number] {
  return {
    event_id: e.eventId, event_type: e.eventType, occurred_at: e.occurredAt.toISOString(), data: e.data,
    actor_email: page.actorEmails.get(e.eventId) ?? null,
    deliveries: page.rows.deliveries.filter((d) => d.eventId === e.eventId).map(presentDelivery),
  };
}

/** The backoffice operation page, each list oldest first. */
export function presentOperationPage(page: OperationPage): BackofficeOperation {
  const { rows, decision } = page;
  return {
    operation: page.operation,
    approvals_required: page.progress.approvals_required,
    approvals: page.progress.approvals,
    originator: rows.originator,
    assignor: presentAssignor(rows.assignor),
    approved_at: iso(decision.approvedAt),
    deny_reason: decision.denyReason,
    cancel_reason: decision.cancelReason,
    contracts: rows.contracts.map(presentContract),
    contract_signers: { document_status: page.signers.documentStatus, signers: page.signers.signers, signers_error: page.signers.error },
    disbursements: rows.disbursements.map(presentDisbursement),
    payer_payments: rows.payments.map(presentPayment),
    timeline: rows.events.map((e) => presentEvent(e, page)),
    temporal_web_url: page.temporalWebUrl,
    test_clock: page.clock ? presentTestClock(page.clock) : null,
  };
}
