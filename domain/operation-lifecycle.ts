import type { Money } from './money';

/** DESIGN.md §5: the operation's lifecycle, as data shared by workflows, activities and the api. */
export const LIFECYCLE_STATUSES = [
  'WAITING_APPROVAL', 'APPROVED_DIRECT', 'PRE_APPROVED', 'CONTRACT_SENT', 'CONTRACT_ERROR', 'SIGNED',
  'DISBURSING', 'DISBURSEMENT_FAILED', 'PAID', 'SETTLED', 'DENIED', 'CANCELLED',
] as const;

export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

export const APPROVED_STATES: readonly LifecycleStatus[] = ['APPROVED_DIRECT', 'PRE_APPROVED'];
export const SIGNABLE_STATES: readonly LifecycleStatus[] = ['PRE_APPROVED', 'APPROVED_DIRECT', 'CONTRACT_ERROR'];
export const CANCELLABLE_STATES: readonly LifecycleStatus[] = [
  'WAITING_APPROVAL', 'APPROVED_DIRECT', 'PRE_APPROVED', 'CONTRACT_ERROR', 'CONTRACT_SENT', 'DISBURSEMENT_FAILED',
];
/** States in which the operation's titles still count towards exposure. */
export const OPEN_TITLE_STATUSES = ['WAITING_PAYMENT', 'PARTIALLY_PAID', 'OVERDUE'] as const;

/** Auto-approval gate (contract rule 8): within a positive limit → born approved; absent or zero → human. */
export function initialStatus(requestedTotal: Money, autoApproveLimit: Money | null): LifecycleStatus {
  if (autoApproveLimit === null || autoApproveLimit.isZero()) return 'WAITING_APPROVAL';
  return autoApproveLimit.gte(requestedTotal) ? 'APPROVED_DIRECT' : 'WAITING_APPROVAL';
}
