import type { Money } from './money';

/**
 * The four-eyes rule: how many approvals an operation needs, and who may give the second. The
 * workflow's approval phase (workflows/operation/phases/approval.ts) refuses the same approver
 * twice; the backoffice (api/backoffice/independent-approvers.ts) asks `approversIndependent`.
 */

/** Two approvals above the policy's positive threshold, else one. */
export function approvalsRequired(requestedTotal: Money, dualApprovalAbove: Money | null | undefined): 1 | 2 {
  return dualApprovalAbove != null && requestedTotal.gt(dualApprovalAbove) ? 2 : 1;
}

/**
 * Four-eyes only holds when the two approvers are two independent people: an admin who made or
 * last changed an approver's account could have made that account for itself. Two approvals of
 * one operation are refused when either approver created or last changed the other's account
 * within the window.
 */
export const INDEPENDENCE_WINDOW_DAYS = 30;

export interface AccountMakers {
  id: string;
  createdBy: string | null;
  createdAt: Date;
  changedBy: string | null;
  changedAt: Date | null;
}

const DAY_MS = 86_400_000;

/** The refusal of an approval whose approver is not independent of an earlier approver of the operation. */
export const NOT_INDEPENDENT = {
  code: 'approvers_not_independent',
  message: `One of this operation's approvers created or last changed the other's account in the last ${INDEPENDENCE_WINDOW_DAYS} days: another approver must give the second approval`,
} as const;

function madeBy(account: AccountMakers, userId: string, since: Date): boolean {
  return (account.createdBy === userId && account.createdAt >= since) || (account.changedBy === userId && account.changedAt !== null && account.changedAt >= since);
}

/** When the window before `now` begins. */
export function independenceSince(now: Date): Date {
  return new Date(now.getTime() - INDEPENDENCE_WINDOW_DAYS * DAY_MS);
}

/** True when neither account was created or last changed by the other user within the window before `now`. */
export function approversIndependent(a: AccountMakers, b: AccountMakers, now: Date): boolean {
  const since = independenceSince(now);
  return !madeBy(a, b.id, since) && !madeBy(b, a.id, since);
}
