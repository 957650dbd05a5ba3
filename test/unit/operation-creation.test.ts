import { expect } from 'chai';
import { AppError, Forbidden, RuleViolation } from '../../domain/errors';
import { Dec, Money } from '../../domain/money';
import {
  decideCreditLimits, decideOperation, Decision, LoadedCreation, OperationPlan, Party, refuseTooMany, ReviewReason,
} from '../../domain/operation-creation';
import { addDays, normalisePricingRequest, Policy } from '../../domain/pricing';

const TODAY = '2026-11-21';
const m = (value: string | number) => Money.of(value);

function buildPolicy(overrides: Partial<Policy> = {}): Policy {
  return {
    id: 'policy-1', originatorId: 'originator-1', name: 'default', active: true,
    minOperationValueBrl: null, maxOperationValueBrl: null, autoApproveLimitBrl: m(50_000), dualApprovalAboveBrl: m(100_000),
    aggregateLimitBrl: m(1_000_000), assignorDefaultLimitBrl: m(500_000), payerDefaultLimitBrl: m(500_000),
    riskAnchoring: 'both', doubleAssignment: 'review', minCetMonthlyPct: new Dec('0.5'), maxCetMonthlyPct: new Dec(15),
    fees: { monthlyRatePct: new Dec('2.5'), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 0 },
    maxReceivablesPerOperation: 100, graceDays: 0, ...overrides,
  };
}

function receivable(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    external_id: 'NF-1', payer_name: 'Payer', payer_document: '11222333000181', due_date: addDays(TODAY, 30),
    net_future_value: '10000.00', requested_net_future_value: '10000.00', ...overrides,
  };
}

function buildLoaded(overrides: { receivables?: Record<string, unknown>[]; policy?: Partial<Policy>; review?: ReviewReason | null; firstContract?: boolean } = {}): LoadedCreation {
  const policy = buildPolicy(overrides.policy);
  const request = normalisePricingRequest({ receivables: overrides.receivables ?? [receivable()] }, { route: 'direct' });
  return {
    pricing: { ...request, policy, assignorDefaults: null, payerDefaultsByDocument: new Map(), businessDate: TODAY, otherDebtDiscounts: Money.ZERO },
    policy, review: overrides.review ?? null, firstContract: overrides.firstContract ?? true,
  };
}

function planOf<T>(decision: Decision<T>): T {
  if (decision.refusal) return expect.fail(`refused: ${JSON.stringify(decision.refusal.detail)}`);
  return decision.plan;
}

function refusalOf<T>(decision: Decision<T>): AppError {
  if (!decision.refusal) return expect.fail('decided to write');
  return decision.refusal;
}

const REVIEW: ReviewReason = { code: 'receivable_assigned_elsewhere', message: 'held elsewhere', external_ids: ['NF-1'] };

describe('creation decisions (domain/operation-creation.ts)', () => {
  describe('decideOperation: the outcomes', () => {
    it('is born APPROVED_DIRECT, with one approval, when the requested total is within the auto-approval limit', () => {
      expect(planOf(decideOperation(buildLoaded()))).to.include({ status: 'APPROVED_DIRECT', approvalsRequired: 1 });
    });

    it('waits for one approval above the auto-approval limit', () => {
      const plan = planOf(decideOperation(buildLoaded({ policy: { autoApproveLimitBrl: m('9999.99') } })));
      expect(plan).to.include({ status: 'WAITING_APPROVAL', approvalsRequired: 1 });
    });

    it('waits for a human whenever the policy has no auto-approval limit, or one of zero', () => {
      expect(planOf(decideOperation(buildLoaded({ policy: { autoApproveLimitBrl: null } }))).status).to.equal('WAITING_APPROVAL');
      expect(planOf(decideOperation(buildLoaded({ policy: { autoApproveLimitBrl: Money.ZERO } }))).status).to.equal('WAITING_APPROVAL');
    });

    it('asks two approvers above the four-eyes threshold', () => {
      const plan = planOf(decideOperation(buildLoaded({ policy: { autoApproveLimitBrl: null, dualApprovalAboveBrl: m('9999.99') } })));
      expect(plan).to.include({ status: 'WAITING_APPROVAL', approvalsRequired: 2 });
    });

    it('sends an operation under review to a human whatever its amount, carrying the reason', () => {
      const plan = planOf(decideOperation(buildLoaded({ review: REVIEW })));
      expect(plan).to.include({ status: 'WAITING_APPROVAL', approvalsRequired: 1 });
      expect(plan.review).to.deep.equal(REVIEW);
    });

    it('gives the assignor\'s first operation a full contract and the next ones an addendum', () => {
      expect(planOf(decideOperation(buildLoaded({ firstContract: true }))).contractType).to.equal('FULL_CONTRACT');
      expect(planOf(decideOperation(buildLoaded({ firstContract: false }))).contractType).to.equal('ADDENDUM');
    });

    it('marks a partial anticipation, and prices what was requested', () => {
      const plan = planOf(decideOperation(buildLoaded({ receivables: [receivable({ requested_net_future_value: '6000.00' })] })));
      expect(plan.hasPartialAnticipations).to.equal(true);
      expect(plan.priced.requestedNetFutureValue.toString()).to.equal('6000.00');
      expect(planOf(decideOperation(buildLoaded())).hasPartialAnticipations).to.equal(false);
    });
  });

  describe('decideOperation: the refusals, returned and not thrown', () => {
    it('refuses a discount at or above a receivable\'s base', () => {
      const refusal = refusalOf(decideOperation(buildLoaded({ receivables: [receivable({ fixed_discount_brl: '10000.00' })] })));
      expect(refusal).to.be.instanceOf(RuleViolation);
      expect(refusal.detail).to.deep.include({ code: 'RECEIVABLE_DISCOUNT_EXCEEDS_BASE' });
    });

    it('refuses a CET outside the policy\'s bounds', () => {
      const refusal = refusalOf(decideOperation(buildLoaded({ receivables: [receivable({ liquid_value_brl: '7000.00' })] })));
      expect(refusal.detail).to.deep.include({ code: 'CET_OUT_OF_BOUNDS', scope: 'operation' });
    });
  });

  describe('refuseTooMany', () => {
    it('refuses more receivables than the policy allows, and never more than the document\'s ceiling of 1000', () => {
      expect(() => refuseTooMany(100, buildPolicy())).to.not.throw();
      expect(() => refuseTooMany(101, buildPolicy())).to.throw(RuleViolation, 'too_many_receivables_max_100');
      expect(() => refuseTooMany(1001, buildPolicy({ maxReceivablesPerOperation: 5000 }))).to.throw(RuleViolation, 'too_many_receivables_max_1000');
    });
  });

  describe('decideCreditLimits', () => {
    const plan = (): OperationPlan => planOf(decideOperation(buildLoaded()));
    const assignor: Party = { id: 'a1', document: '12345678901', limitBrl: null, registeredNow: false };
    const payer: Party = { id: 'p1', document: '11222333000181', limitBrl: null, registeredNow: false };
    const open = (payerExposure = Money.ZERO) => ({ originator: Money.ZERO, assignor: Money.ZERO, payers: new Map([['p1', payerExposure]]) });

    it('lets an operation within every limit through', () => {
      expect(planOf(decideCreditLimits(plan(), { assignor, payers: [payer] }, open()))).to.equal(null);
    });

    it('refuses above the policy\'s maximum per operation', () => {
      const refusal = refusalOf(decideCreditLimits({ ...plan(), policy: buildPolicy({ maxOperationValueBrl: m(5000) }) }, { assignor, payers: [payer] }, open()));
      expect(refusal).to.be.instanceOf(Forbidden);
      expect(refusal.detail).to.deep.include({ code: 'LIMIT_MAX_OPERATION_VALUE' });
    });

    it('refuses a payer whose open exposure and this operation exceed its limit, naming it by its row', () => {
      const refusal = refusalOf(decideCreditLimits(plan(), { assignor, payers: [{ ...payer, limitBrl: '15000.00' }] }, open(m(6000))));
      expect(refusal.detail).to.deep.include({ code: 'LIMIT_AGGREGATE_EXPOSURE', open_exposure_brl: '6000.00', requested_brl: '10000.00' });
      expect(refusal.detail).to.nested.include({ 'scope.type': 'payer', 'scope.id': 'p1' });
    });

    it('names no id for a party this request registered: its row goes with the refusal', () => {
      const refusal = refusalOf(decideCreditLimits(plan(), { assignor, payers: [{ ...payer, limitBrl: '0.00', registeredNow: true }] }, open()));
      expect(refusal.detail).to.have.nested.property('scope.id', null);
    });
  });
});
