import { v7 as uuidv7 } from 'uuid';
import { RuleViolation } from '../../domain/errors';
import { Dec, Money } from '../../domain/money';
import { FeeDefaults, Policy, requirePolicy } from '../../domain/pricing';
import { TenantScopedRepository } from './tenant-scoped';

type Row = Record<string, string | number | boolean | null>;
/** `doubleAssignment` may be left out: the column's default (`review`) applies. */
export type PolicySettings = Omit<Policy, 'id' | 'originatorId' | 'doubleAssignment'> & Partial<Pick<Policy, 'doubleAssignment'>>;

const money = (value: unknown) => (value === null || value === undefined ? null : Money.of(String(value)));
const rate = (value: unknown) => (value === null || value === undefined ? null : new Dec(String(value)));
const text = (value: Money | Dec | null) => (value === null ? null : value.toString());

function toPolicy(row: Row): Policy {
  return {
    id: String(row.id),
    originatorId: String(row.originator_id),
    name: String(row.name),
    active: Boolean(row.active),
    minOperationValueBrl: money(row.min_operation_value_brl),
    maxOperationValueBrl: money(row.max_operation_value_brl),
    autoApproveLimitBrl: money(row.auto_approve_limit_brl),
    dualApprovalAboveBrl: money(row.dual_approval_above_brl),
    aggregateLimitBrl: money(row.aggregate_limit_brl),
    assignorDefaultLimitBrl: money(row.assignor_default_limit_brl),
    payerDefaultLimitBrl: money(row.payer_default_limit_brl),
    riskAnchoring: row.risk_anchoring as Policy['riskAnchoring'],
    doubleAssignment: row.double_assignment as Policy['doubleAssignment'],
    minCetMonthlyPct: rate(row.min_cet_monthly_pct),
    maxCetMonthlyPct: rate(row.max_cet_monthly_pct),
    fees: {
      monthlyRatePct: new Dec(String(row.default_monthly_rate_pct)),
      discountPct: new Dec(String(row.default_discount_pct)),
      fixedDiscountBrl: Money.of(String(row.default_fixed_discount_brl)),
      floatingDays: Number(row.default_floating_days),
    },
    maxReceivablesPerOperation: Number(row.max_receivables_per_operation),
    graceDays: Number(row.grace_days),
  };
}

function toRow(p: PolicySettings): Row {
  return {
    name: p.name,
    active: p.active,
    min_operation_value_brl: text(p.minOperationValueBrl),
    max_operation_value_brl: text(p.maxOperationValueBrl),
    auto_approve_limit_brl: text(p.autoApproveLimitBrl),
    dual_approval_above_brl: text(p.dualApprovalAboveBrl ?? null),
    aggregate_limit_brl: text(p.aggregateLimitBrl),
    assignor_default_limit_brl: text(p.assignorDefaultLimitBrl),
    payer_default_limit_brl: text(p.payerDefaultLimitBrl),
    risk_anchoring: p.riskAnchoring,
    ...(p.doubleAssignment ? { double_assignment: p.doubleAssignment } : {}),
    min_cet_monthly_pct: text(p.minCetMonthlyPct),
    max_cet_monthly_pct: text(p.maxCetMonthlyPct),
    default_monthly_rate_pct: p.fees.monthlyRatePct.toString(),
    default_discount_pct: p.fees.discountPct.toString(),
    default_fixed_discount_brl: p.fees.fixedDiscountBrl.toString(),
    default_floating_days: p.fees.floatingDays,
    max_receivables_per_operation: p.maxReceivablesPerOperation,
    grace_days: p.graceDays,
  };
}

function toFeeDefaults(row: Row): FeeDefaults {
  return {
    monthlyRatePct: rate(row.monthly_rate_pct),
    discountPct: rate(row.discount_pct),
    fixedDiscountBrl: money(row.fixed_discount_brl),
    floatingDays: row.floating_days === null ? null : Number(row.floating_days),
  };
}

/**
 * The policy an operation is priced and limited by: the one named by `policy_id` (any of the
 * originator's, active or not), else the active one. 422 when there is none.
 */
export async function policyForOperation(policyId: string | null, find: (policyId: string | null) => Promise<Policy | null>): Promise<Policy> {
  const policy = await find(policyId);
  if (policyId === null) return requirePolicy(policy);
  if (!policy) throw new RuleViolation({ code: 'policy_not_found', message: `No policy ${policyId} for this originator`, policy_id: policyId });
  return policy;
}

const FEE_COLUMNS = ['document', 'monthly_rate_pct', 'discount_pct', 'fixed_discount_brl', 'floating_days'];

/**
 * The originator's policies, and the fee defaults of its assignors and payers that override the
 * policy's (levels `assignor` and `payer` of the fee hierarchy): everything pricing reads.
 */
export class PoliciesRepository extends TenantScopedRepository {
  async active(): Promise<Policy | null> {
    const row = await this.scoped('policies').where({ active: true }).first();
    return row ? toPolicy(row) : null;
  }

  async byId(id: string): Promise<Policy | null> {
    const row = await this.scoped('policies').where({ id }).first();
    return row ? toPolicy(row) : null;
  }

  /** The policy named, or the active one when `policyId` is null; null when there is none. */
  async find(policyId: string | null): Promise<Policy | null> {
    return policyId === null ? this.active() : this.byId(policyId);
  }

  async forOperation(policyId: string | null): Promise<Policy> {
    return policyForOperation(policyId, (id) => this.find(id));
  }

  /** Inserts a policy; with a fixed `id` a second run changes nothing (the dev seed). */
  async create(settings: PolicySettings, id: string = uuidv7()): Promise<Policy> {
    await this.insertOwned('policies', { id, ...toRow(settings) }).onConflict('id').ignore();
    return (await this.byId(id))!;
  }

  async assignorFeeDefaults(document: string): Promise<FeeDefaults | null> {
    const row = await this.scoped('assignors').select(FEE_COLUMNS).where({ document }).first();
    return row ? toFeeDefaults(row) : null;
  }

  async payerFeeDefaults(documents: readonly string[]): Promise<Map<string, FeeDefaults>> {
    const rows: Row[] = await this.scoped('payers').select(FEE_COLUMNS).whereIn('document', [...new Set(documents)]);
    return new Map(rows.map((row) => [String(row.document), toFeeDefaults(row)]));
  }
}
