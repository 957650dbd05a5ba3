import type { EventType } from './events';
import type { LifecycleStatus } from './operation-lifecycle';

/** The event a move into each state records (DESIGN.md §5), in the move's transaction; states absent record none. */
export const EVENT_ON_ENTRY: Readonly<Partial<Record<LifecycleStatus, EventType>>> = {
  PRE_APPROVED: 'operation.approved',
  SIGNED: 'operation.contract_signed',
  PAID: 'operation.paid',
  DENIED: 'operation.denied',
  CANCELLED: 'operation.cancelled',
  SETTLED: 'operation.settled',
  DISBURSEMENT_FAILED: 'operation.disbursement_failed',
  CONTRACT_ERROR: 'operation.contract_error',
};

/**
 * States an operation may enter more than once (a retried PIX refused again, a re-dispatched
 * contract refused again): each entry is its own event, named by the row's last change before it.
 */
export const REENTERED: readonly LifecycleStatus[] = ['DISBURSEMENT_FAILED', 'CONTRACT_ERROR'];
