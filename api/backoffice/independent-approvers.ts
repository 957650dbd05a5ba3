import type { Knex } from 'knex';
import { StaffUsersRepository } from '../../db/repositories/staff-users';
import { approversIndependent, independenceSince } from '../../domain/four-eyes';

/**
 * The staff an approver may not pair with on a four-eyes approval: whoever created or last changed
 * the approver's account within the window, and whoever's account the approver did. The approval
 * carries them to the operation's workflow, which refuses it when one of them approved already;
 * approvals are taken one at a time there, so two dependent approvers at the same instant cannot
 * both pass, as they could when this was checked against the approvals stored so far.
 */
export async function notIndependentOf(db: Knex, approverId: string, now: Date): Promise<string[]> {
  const users = new StaffUsersRepository(db);
  const [approver] = await users.makers([approverId]);
  if (!approver) return [];
  const made = await users.madeOrChangedBy(approverId, independenceSince(now));
  const makers = await users.makers([approver.createdBy, approver.changedBy].filter((id): id is string => id !== null && id !== approverId));
  return [...new Set([...made, ...makers].filter((other) => other.id !== approverId && !approversIndependent(approver, other, now)).map((other) => other.id))];
}
