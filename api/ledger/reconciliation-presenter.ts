import type { ReconciliationRun, StoredMismatch } from '../../db/repositories/ledger-reconciliations';
import type { Schema } from '../openapi/contract-types';

export function presentReconciliation(run: ReconciliationRun): Schema<'LedgerReconciliation'> {
  return {
    id: run.id, business_date: run.businessDate, psp: run.psp, status: run.status, requested_by: run.requestedBy,
    ledger_closing_balance: run.ledgerBalance.toString(), psp_closing_balance: run.pspBalance.toString(),
    psp_lines: run.pspLines, ledger_lines: run.ledgerLines, mismatch_count: run.mismatchCount, created_at: run.createdAt.toISOString(),
    accepted_by: run.acceptedBy, accepted_reason: run.acceptedReason, accepted_at: run.acceptedAt?.toISOString() ?? null, date_closed: run.closed,
  };
}

export function presentMismatch(mismatch: StoredMismatch): Schema<'LedgerReconciliationMismatch'> {
  return {
    id: mismatch.id, reconciliation_id: mismatch.reconciliationId, originator_id: mismatch.originatorId, kind: mismatch.kind,
    reference: mismatch.reference, end_to_end_id: mismatch.endToEndId, direction: mismatch.direction,
    ledger_amount: mismatch.ledgerAmount?.toString() ?? null, psp_amount: mismatch.pspAmount?.toString() ?? null, occurred_at: mismatch.at?.toISOString() ?? null,
  };
}

export function presentReconciliationDetail(run: ReconciliationRun, mismatches: StoredMismatch[]): Schema<'LedgerReconciliationDetail'> {
  return { reconciliation: presentReconciliation(run), mismatches: mismatches.map(presentMismatch) };
}
