import { AppError, RuleViolation } from './errors';
import { checkCreditLimits, requestedByPayer } from './limits';
import { Money } from './money';
import { approvalsRequired } from './four-eyes';
import { initialStatus, LifecycleStatus } from './operation-lifecycle';
import { enforceCetBounds, Policy, priceOperation, PricedOperation, PricingInput } from './pricing';
import { RECEIVABLES_CEILING } from './pricing/policy';

/**
 * The decisions of an operation's creation (direct and stock), pure: the routes load what they
 * need, ask here, and write what comes back. A refusal is a value, one of the typed errors the api
 * maps to the contract's envelope, so a caller can rename it (the stock routes name items) or throw it.
 */
export type Decision<T> = { plan: T; refusal?: never } | { refusal: AppError; plan?: never };

function decided<T>(decide: () => T): Decision<T> {
  try {
    return { plan: decide() };
  } catch (err) {
    if (err instanceof AppError) return { refusal: err };
    throw err;
  }
}

/** Why an operation waits for a human whatever its amount (stored in `operations.review_reason`, shown in the approval queue). */
export interface ReviewReason {
  code: 'receivable_assigned_elsewhere';
  message: string;
  external_ids: string[];
}

/** Creation and simulation refuse the same lists with the same code. */
export function refuseTooMany(count: number, policy: Policy): void {
  const max = Math.min(policy.maxReceivablesPerOperation, RECEIVABLES_CEILING);
  if (count > max) throw new RuleViolation(`too_many_receivables_max_${max}`);
}

/** What creation has read before it decides: the pricing input (the open debt locked), the review, the assignor's contracts. */
export interface LoadedCreation {
  pricing: PricingInput;
  policy: Policy;
  /** Set when the operation must wait for a human whatever its amount (a receivable held by another originator). */
  review: ReviewReason | null;
  /** The assignor has no contract sent or signed yet: this one is its full contract, not an addendum. */
  firstContract: boolean;
}

/** What to write: the priced operation and the state it is born in. */
export interface OperationPlan {
  priced: PricedOperation;
  policy: Policy;
  status: LifecycleStatus;
  approvalsRequired: 1 | 2;
  review: ReviewReason | null;
  contractType: 'FULL_CONTRACT' | 'ADDENDUM';
  hasPartialAnticipations: boolean;
}

/** Prices the operation within the policy's CET bounds and decides the state it is born in (contract rule 8, four-eyes). */
export function decideOperation(loaded: LoadedCreation): Decision<OperationPlan> {
  return decided(() => {
    const priced = priceOperation(loaded.pricing);
    enforceCetBounds(priced);
    const { policy, review } = loaded;
    const status = review ? 'WAITING_APPROVAL' : initialStatus(priced.requestedNetFutureValue, policy.autoApproveLimitBrl);
    return {
      priced, policy, status, review,
      approvalsRequired: status === 'WAITING_APPROVAL' ? approvalsRequired(priced.requestedNetFutureValue, policy.dualApprovalAboveBrl) : 1,
      contractType: loaded.firstContract ? 'FULL_CONTRACT' : 'ADDENDUM',
      hasPartialAnticipations: priced.receivables.some((r) => r.input.netFutureValue.gt(r.input.requestedNetFutureValue)),
    };
  });
}

/** An assignor or payer of the operation as its row has it. */
export interface Party {
  id: string;
  document: string;
  limitBrl: string | null;
  /** Inserted by this request: refused, its row goes, so no limit of its own is reported. */
  registeredNow: boolean;
}

/** Each payer's document with what the operation asks of its limit, in the order the receivables name them. */
export function requestedOfPayers(plan: OperationPlan): Map<string, Money> {
  return requestedByPayer(plan.priced.receivables.map((r) => ({ payerDocument: r.input.payerDocument, requestedBrl: r.input.requestedNetFutureValue })));
}

/** The open exposure read under the counters' locks: the originator's, the assignor's, and each payer's by id. */
export interface LockedExposure {
  originator: Money;
  assignor: Money;
  payers: ReadonlyMap<string, Money>;
}

/** The credit limits (DESIGN.md §7) against the exposure read under lock: null when the operation fits. */
export function decideCreditLimits(plan: OperationPlan, parties: { assignor: Party; payers: readonly Party[] }, exposure: LockedExposure): Decision<null> {
  const { policy, priced } = plan;
  const payerTotals = requestedOfPayers(plan);
  const exposureOf = (party: Party, open: Money, requestedBrl: Money) => ({
    entityId: party.registeredNow ? null : party.id, document: party.document, ownLimitBrl: party.limitBrl === null ? null : Money.of(party.limitBrl),
    openExposureBrl: open, requestedBrl,
  });
  const input = {
    policy: {
      minOperationBrl: policy.minOperationValueBrl, maxOperationBrl: policy.maxOperationValueBrl,
      aggregateCeilingBrl: policy.aggregateLimitBrl, assignorDefaultLimitBrl: policy.assignorDefaultLimitBrl,
      payerDefaultLimitBrl: policy.payerDefaultLimitBrl, anchoring: policy.riskAnchoring,
    },
    operationTotalBrl: priced.requestedNetFutureValue,
    assignor: exposureOf(parties.assignor, exposure.assignor, priced.requestedNetFutureValue),
    payers: parties.payers.map((payer) => exposureOf(payer, exposure.payers.get(payer.id)!, payerTotals.get(payer.document)!)),
    aggregateOpenExposureBrl: exposure.originator,
  };
  return decided(() => {
    checkCreditLimits(input);
    return null;
  });
}
