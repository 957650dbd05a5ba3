import type { Knex } from 'knex';
import { OperationApprovalsRepository } from '../../db/repositories/operation-approvals';
import { StaffUsersRepository } from '../../db/repositories/staff-users';
import { approversIndependent, INDEPENDENCE_WINDOW_DAYS } from '../../domain/four-eyes';
import { Conflict } from '../../domain/errors';

/**
 * Refuses an approval whose approver and an earlier approver of the same operation are not
 * independent (one created or last changed the other's account lately): four-eyes would then be
 * one person's. Only operations needing two approvals have earlier approvals recorded.
 */
export async function requireIndependentApprover(db: Knex, operationId: string, approverId: string, now: Date): Promise<void> {
  const others = ((await new OperationApprovalsRepository(db).of([operationId])).get(operationId) ?? []).filter((a) => a.userId !== approverId);
  if (others.length === 0) return;
  const makers = await new StaffUsersRepository(db).makers([approverId, ...others.map((a) => a.userId)]);
  const approver = makers.find((m) => m.id === approverId);
  const dependent = approver && makers.find((m) => m.id !== approverId && !approversIndependent(approver, m, now));
  if (dependent) {
    throw new Conflict({
      code: 'approvers_not_independent',
      message: `One of this operation's approvers created or last changed the other's account in the last ${INDEPENDENCE_WINDOW_DAYS} days: another approver must give the second approval`,
    });
  }
}
