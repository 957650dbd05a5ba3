import type { Knex } from 'knex';
import { Conflict } from '../../domain/errors';
import { eventId } from '../../domain/events';
import type { DoubleAssignmentPolicy } from '../../domain/pricing';
import { keyOfFingerprint } from '../../domain/receivable-identity';
import type { ReviewReason } from '../../domain/operation-creation';
import { recordEvent } from '../../db/repositories/events';
import { ReceivableClaimsRepository } from '../../db/repositories/receivable-claims';
import type { OperationRow } from '../../db/repositories/operations';

/** A receivable of a request, as the guard sees it. */
export interface Guarded {
  externalId: string;
  fingerprint: string | null;
}

const ATTEMPTS = 3;
const keyed = (receivables: readonly Guarded[]) => receivables.filter((r) => r.fingerprint !== null && keyOfFingerprint(r.fingerprint) !== null);

/**
 * The signal across originators: an NF-e key another originator holds. With `refuse`, 409
 * `receivable_assigned_elsewhere` naming only the caller's own receivable; with `review`, the
 * reason the operation must wait for a human. Keys are compared, never the tuple of a receivable
 * without one (two originators' payers and identifiers are not comparable).
 */
function decideElsewhere(receivables: readonly Guarded[], elsewhere: ReadonlySet<string>, policy: DoubleAssignmentPolicy): ReviewReason | null {
  const flagged = keyed(receivables).filter((r) => elsewhere.has(r.fingerprint!));
  if (flagged.length === 0) return null;
  if (policy === 'refuse') {
    throw new Conflict({
      code: 'receivable_assigned_elsewhere', external_id: flagged[0].externalId,
      message: `Receivable ${flagged[0].externalId}: this NF-e is already assigned elsewhere`,
    });
  }
  return {
    code: 'receivable_assigned_elsewhere', external_ids: flagged.map((r) => r.externalId),
    message: `${flagged.length} receivable(s) carry an NF-e key already assigned elsewhere; the operation waits for a human decision`,
  };
}

/**
 * The guard for receivables that enter as new (creation, registration, a PATCH that changes the
 * invoice): claims each one, or refuses with 409 `receivable_already_assigned` naming what holds
 * it; then the signal across originators, looked up in the same round trip. A claim whose holder
 * was released between the conflict and the look-up is simply taken on the next attempt.
 */
export async function guardReceivables(trx: Knex, originatorId: string, receivables: readonly Guarded[], policy: DoubleAssignmentPolicy): Promise<ReviewReason | null> {
  const claims = new ReceivableClaimsRepository(trx, originatorId);
  let pending = receivables.flatMap((r) => (r.fingerprint ? [r.fingerprint] : []));
  const { held: firstHeld, elsewhere } = await claims.claim(pending, keyed(receivables).map((r) => r.fingerprint!));
  for (let attempt = 1, held = firstHeld; held.size > 0; attempt += 1) {
    const holders = await claims.holders([...held]);
    const first = receivables.find((r) => r.fingerprint !== null && held.has(r.fingerprint) && (holders.has(r.fingerprint) || attempt === ATTEMPTS));
    if (first) {
      const holder = holders.get(first.fingerprint!) ?? { stockItemId: null, operationId: null };
      const where = [holder.stockItemId && `stock item ${holder.stockItemId}`, holder.operationId && `operation ${holder.operationId}`].filter(Boolean).join(' and ');
      throw new Conflict({
        code: 'receivable_already_assigned',
        message: `Receivable ${first.externalId} is already assigned${where ? `: held by ${where}` : ''}`,
        external_id: first.externalId, stock_item_id: holder.stockItemId, operation_id: holder.operationId,
      });
    }
    pending = [...held];
    held = (await claims.claim(pending)).held;
  }
  return decideElsewhere(receivables, elsewhere, policy);
}

/** The signal across originators alone, for receivables already held (the stock items an anticipation takes). */
export async function assignedElsewhere(trx: Knex, originatorId: string, receivables: readonly Guarded[], policy: DoubleAssignmentPolicy): Promise<ReviewReason | null> {
  const elsewhere = await new ReceivableClaimsRepository(trx, originatorId).heldElsewhere(keyed(receivables).map((r) => r.fingerprint!));
  return decideElsewhere(receivables, elsewhere, policy);
}

/** `operation.flagged`, in the creation's transaction: the operation was sent to review for `reason`. */
export async function recordFlagged(trx: Knex, operation: Pick<OperationRow, 'id' | 'originatorId' | 'displayNumber' | 'createdAt'>, reason: ReviewReason): Promise<void> {
  await recordEvent(trx, {
    eventId: eventId(`operation-${operation.id}`, 'operation.flagged'), originatorId: operation.originatorId, eventType: 'operation.flagged',
    occurredAt: operation.createdAt,
    data: {
      operation_id: operation.id, display_number: operation.displayNumber, originator_id: operation.originatorId,
      lifecycle_status: 'WAITING_APPROVAL', reason: reason.code, external_ids: reason.external_ids,
    },
  });
}
