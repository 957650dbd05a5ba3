import type { Knex } from 'knex';
import { hashPassword, hashSecret } from '../crypto/passwords';
import { BACKOFFICE_SCOPES, CLIENT_SCOPES } from '../../domain/principal';
import { Dec, Money } from '../../domain/money';
import { PoliciesRepository } from '../repositories/policies';
import { ProductsRepository } from '../repositories/products';

/** DESIGN.md §12 dev data. Fixed ids so that a second run finds what the first one made. */
export const DEV_SEED = {
  originators: [
    { id: '01930000-0000-7000-8000-00000000000a', name: 'Demo Originator A', clientId: 'zk_sbx_demo_a', secret: 'sk_sbx_demo_a_secret', credentialId: '01930000-0000-7000-8000-0000000000a1' },
    { id: '01930000-0000-7000-8000-00000000000b', name: 'Demo Originator B', clientId: 'zk_sbx_demo_b', secret: 'sk_sbx_demo_b_secret', credentialId: '01930000-0000-7000-8000-0000000000b1' },
  ],
  backoffice: { id: '01930000-0000-7000-8000-0000000000f1', email: 'backoffice@example.com', password: 'backoffice-dev-password', name: 'Backoffice Analyst' },
} as const;

/** Fixed ids of each demo originator's policy and product, keyed by originator id. */
const DEV_PRICING_IDS: Record<string, { policy: string; product: string }> = {
  '01930000-0000-7000-8000-00000000000a': { policy: '01930000-0000-7000-8000-0000000000a2', product: '01930000-0000-7000-8000-0000000000a3' },
  '01930000-0000-7000-8000-00000000000b': { policy: '01930000-0000-7000-8000-0000000000b2', product: '01930000-0000-7000-8000-0000000000b3' },
};

async function seedPricing(db: Knex, originatorId: string): Promise<void> {
  const ids = DEV_PRICING_IDS[originatorId];
  await new PoliciesRepository(db, originatorId).create({
    name: 'Demo policy', active: true,
    minOperationValueBrl: Money.of('100.00'), maxOperationValueBrl: Money.of('5000000.00'),
    autoApproveLimitBrl: Money.of('50000.00'), aggregateLimitBrl: Money.of('20000000.00'),
    assignorDefaultLimitBrl: Money.of('1000000.00'), payerDefaultLimitBrl: Money.of('500000.00'), riskAnchoring: 'both',
    minCetMonthlyPct: new Dec('0.5'), maxCetMonthlyPct: new Dec('15'),
    fees: { monthlyRatePct: new Dec('2.5'), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 1 },
    maxReceivablesPerOperation: 500, graceDays: 3,
  }, ids.policy);
  await new ProductsRepository(db, originatorId).create({
    name: 'NF-e anticipation', description: 'Invoices (NF-e) and duplicatas, 1 to 180 days',
    minMonthlyRatePct: new Dec('1.5'), maxMonthlyRatePct: new Dec('6'), minTermDays: 1, maxTermDays: 180,
    minValueBrl: Money.of('100.00'), maxValueBrl: Money.of('5000000.00'), active: true,
  }, ids.product);
}

export async function seedDev(db: Knex): Promise<void> {
  for (const o of DEV_SEED.originators) {
    await db('originators').insert({ id: o.id, name: o.name }).onConflict('id').ignore();
    await seedPricing(db, o.id);
    const existing = await db('api_credentials').where({ id: o.credentialId }).first();
    if (!existing) {
      await db('api_credentials').insert({
        id: o.credentialId, originator_id: o.id, client_id: o.clientId, secret_hash: await hashSecret(o.secret),
        env: 'sandbox', scopes: [...CLIENT_SCOPES],
      });
    }
  }
  const bo = DEV_SEED.backoffice;
  if (!(await db('users').where({ id: bo.id }).first())) {
    await db('users').insert({
      id: bo.id, email: bo.email, name: bo.name, password_hash: await hashPassword(bo.password),
      kind: 'backoffice', originator_id: null, scopes: [...BACKOFFICE_SCOPES],
    });
  } else {
    // A data folder seeded before a scope was added gets it too.
    await db('users').where({ id: bo.id }).update({ scopes: [...BACKOFFICE_SCOPES] });
  }
}
