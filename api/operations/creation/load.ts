import type { Knex } from 'knex';
import type { LoadedCreation, ReviewReason } from '../../../domain/operation-creation';
import { businessDate, OperationFees, Policy, PricingInput, ReceivableInput } from '../../../domain/pricing';
import type { Money } from '../../../domain/money';
import type { AssignorRow } from '../../../db/repositories/assignors';
import { OperationWritesRepository } from '../../../db/repositories/operation-writes';
import { PoliciesRepository } from '../../../db/repositories/policies';
import { openDebtOf } from '../debt-netting';

export interface PricingRead {
  receivables: ReceivableInput[];
  fees: OperationFees | null;
  policy: Policy;
  assignorDocument: string;
  now: Date;
  /** The assignor's open debt netted from the PIX amount (DESIGN.md §6). */
  otherDebt?: Money;
}

/** What pricing reads besides the request: the assignor's and the payers' fee defaults, and the business date at `now`. */
export async function loadPricing(trx: Knex, originatorId: string, read: PricingRead): Promise<PricingInput> {
  const policies = new PoliciesRepository(trx, originatorId);
  return {
    receivables: read.receivables, fees: read.fees, policy: read.policy,
    assignorDefaults: await policies.assignorFeeDefaults(read.assignorDocument),
    payerDefaultsByDocument: await policies.payerFeeDefaults(read.receivables.map((r) => r.payerDocument)),
    businessDate: businessDate(read.now), otherDebtDiscounts: read.otherDebt,
  };
}

type CreationRead = Omit<PricingRead, 'assignorDocument' | 'otherDebt'> & { assignor: AssignorRow; review: ReviewReason | null };

/**
 * Everything creation decides on (domain/operation-creation.ts), read in the creation's
 * transaction: the pricing input with the assignor's open debt, locked so the figure priced is the
 * figure settled, and whether the assignor already has a contract.
 */
export async function loadCreation(trx: Knex, originatorId: string, read: CreationRead): Promise<LoadedCreation> {
  const { assignor } = read;
  const pricing = await loadPricing(trx, originatorId, { ...read, assignorDocument: assignor.document });
  // Pricing caps the netted debt at Σ liquid, so the PIX amount is never negative.
  const otherDebt = await openDebtOf(trx, originatorId, assignor.id);
  const firstContract = !(await new OperationWritesRepository(trx).hasContract(assignor.id));
  return { pricing: { ...pricing, otherDebtDiscounts: otherDebt }, policy: read.policy, review: read.review, firstContract };
}
