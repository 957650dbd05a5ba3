import { RuleViolation } from '../errors';
import type { Dec, Money } from '../money';
import type { RateFields } from './fee-fields';

export type RiskAnchoring = 'assignor' | 'payer' | 'both';
/** What happens to a receivable whose NF-e key another originator holds (docs/decisions.md, "Double assignment"). */
export type DoubleAssignmentPolicy = 'refuse' | 'review';

/** Fee defaults of one level of the hierarchy; null means "this level says nothing". */
export interface FeeDefaults extends RateFields {
  floatingDays: number | null;
}

/** The policy level always says something: it is where the hierarchy ends. */
export interface PolicyFees {
  monthlyRatePct: Dec;
  discountPct: Dec;
  fixedDiscountBrl: Money;
  floatingDays: number;
}

/** An originator's credit and pricing policy (DESIGN.md §7). Null limits are "not configured". */
export interface Policy {
  id: string;
  originatorId: string;
  name: string;
  active: boolean;
  minOperationValueBrl: Money | null;
  maxOperationValueBrl: Money | null;
  autoApproveLimitBrl: Money | null;
  /** Four-eyes: above it an operation needs two approvers; null or absent = one approval. */
  dualApprovalAboveBrl?: Money | null;
  aggregateLimitBrl: Money | null;
  assignorDefaultLimitBrl: Money | null;
  payerDefaultLimitBrl: Money | null;
  riskAnchoring: RiskAnchoring;
  doubleAssignment: DoubleAssignmentPolicy;
  minCetMonthlyPct: Dec | null;
  maxCetMonthlyPct: Dec | null;
  fees: PolicyFees;
  maxReceivablesPerOperation: number;
  graceDays: number;
}

/** What pricing reads of a policy; tests and benches build just this. */
export type PricingPolicy = Pick<Policy, 'fees' | 'minCetMonthlyPct' | 'maxCetMonthlyPct'>;

export function requirePolicy<P extends PricingPolicy>(policy: P | null): P {
  if (!policy) throw new RuleViolation('originator_policy_not_configured');
  return policy;
}

/**
 * The document's `maxItems` of every receivables list: whatever a policy row says, no list above
 * it is accepted, so the number integrators read there holds.
 */
export const RECEIVABLES_CEILING = 1000;
