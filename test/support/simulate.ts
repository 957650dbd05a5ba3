import { Dec, Money } from '../../domain/money';
import { addDays, businessDate, Policy } from '../../domain/pricing';
import { PoliciesRepository, PolicySettings } from '../../db/repositories/policies';
import { testDb } from './stack';
import { cnpj } from './documents';
import type { ApiClient } from './http';
import { buildIntegrator } from './factories';

/** A plain policy that makes the arithmetic of API tests easy to follow: 2.5% a month, nothing else. */
export const TEST_POLICY: PolicySettings = {
  name: 'Test policy', active: true,
  minOperationValueBrl: null, maxOperationValueBrl: null, autoApproveLimitBrl: Money.of('50000.00'), aggregateLimitBrl: null,
  assignorDefaultLimitBrl: Money.of('1000000.00'), payerDefaultLimitBrl: Money.of('500000.00'), riskAnchoring: 'both',
  minCetMonthlyPct: new Dec('0.5'), maxCetMonthlyPct: new Dec('15'),
  fees: { monthlyRatePct: new Dec('2.5'), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 0 },
  maxReceivablesPerOperation: 500, graceDays: 3,
};

export async function buildPolicy(originatorId: string, overrides: Partial<PolicySettings> = {}): Promise<Policy> {
  return new PoliciesRepository(testDb(), originatorId).create({ ...TEST_POLICY, ...overrides });
}

/** An originator with a token and (unless `policy: null`) the test policy. */
export async function buildPricingIntegrator(client: ApiClient, options: { policy?: Partial<PolicySettings> | null; scopes?: string[] } = {}) {
  const integrator = await buildIntegrator(client, options.scopes ? { scopes: options.scopes } : {});
  const policy = options.policy === null ? null : await buildPolicy(integrator.originatorId, options.policy ?? {});
  return { ...integrator, policy };
}

/** The business date now, and a due date `days` after it. */
export const today = () => businessDate(new Date());
export const dueIn = (days: number) => addDays(today(), days);

/** A valid receivable: NFV and requested 10,000.00, due in 30 days. */
export function receivable(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    external_id: `NF-${Math.random().toString(36).slice(2, 10)}`,
    payer_name: 'Payer Ltda',
    payer_document: cnpj(),
    due_date: dueIn(30),
    net_future_value: '10000.00',
    requested_net_future_value: '10000.00',
    ...overrides,
  };
}

/** `receivable()` without some of its keys (to send a value under another name). */
export function receivableWithout(keys: string[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const item = receivable(overrides);
  for (const key of keys) delete item[key];
  return item;
}
