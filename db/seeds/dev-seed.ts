import type { Knex } from 'knex';
import { hashPassword, hashSecret } from '../../platform/crypto/passwords';
import { CLIENT_SCOPES } from '../../domain/principal';
import { scopesOfRoles, StaffRole } from '../../domain/staff-roles';
import type { CipherRing } from '../../platform/crypto/cipher-ring';
import { Dec, Money } from '../../domain/money';
import { PoliciesRepository } from '../repositories/policies';
import { ProductsRepository } from '../repositories/products';

/** DESIGN.md §12 dev data. Fixed ids so that a second run finds what the first one made. */
export const DEV_SEED = {
  originators: [
    {
      id: '01930000-0000-7000-8000-00000000000a', name: 'Demo Originator A', clientId: 'zk_sbx_demo_a', secret: 'sk_sbx_demo_a_secret', credentialId: '01930000-0000-7000-8000-0000000000a1',
      collectionPixKey: 'cobranca@demo-a.example.com',
    },
    {
      id: '01930000-0000-7000-8000-00000000000b', name: 'Demo Originator B', clientId: 'zk_sbx_demo_b', secret: 'sk_sbx_demo_b_secret', credentialId: '01930000-0000-7000-8000-0000000000b1',
      collectionPixKey: 'cobranca@demo-b.example.com',
    },
  ],
  backoffice: { id: '01930000-0000-7000-8000-0000000000f1', email: 'backoffice@example.com', password: 'backoffice-dev-password', name: 'Backoffice Analyst', roles: ['approver'] },
  admin: {
    id: '01930000-0000-7000-8000-0000000000f2', email: 'admin@example.com', password: 'admin-dev-password', name: 'Backoffice Admin', roles: ['admin'],
    totpSecret: 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU',
  },
  /** The second admin that confirms the first's grants of approver or admin (two admins for every grant). */
  admin2: {
    id: '01930000-0000-7000-8000-0000000000f3', email: 'admin2@example.com', password: 'admin2-dev-password', name: 'Backoffice Admin 2', roles: ['admin'],
    totpSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
  },
} as const;

/** Above this both demo policies ask for two approvers (four-eyes). */
export const DEV_DUAL_APPROVAL_ABOVE_BRL = '200000.00';

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
    autoApproveLimitBrl: Money.of('50000.00'), dualApprovalAboveBrl: Money.of(DEV_DUAL_APPROVAL_ABOVE_BRL), aggregateLimitBrl: Money.of('20000000.00'),
    assignorDefaultLimitBrl: Money.of('1000000.00'), payerDefaultLimitBrl: Money.of('500000.00'), riskAnchoring: 'both',
    minCetMonthlyPct: new Dec('0.5'), maxCetMonthlyPct: new Dec('15'),
    fees: { monthlyRatePct: new Dec('2.5'), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 1 },
    maxReceivablesPerOperation: 500, graceDays: 3,
  }, ids.policy);
  // A data folder seeded before four-eyes existed gets the threshold too.
  await db('policies').where({ id: ids.policy }).whereNull('dual_approval_above_brl').update({ dual_approval_above_brl: DEV_DUAL_APPROVAL_ABOVE_BRL });
  await new ProductsRepository(db, originatorId).create({
    name: 'NF-e anticipation', description: 'Invoices (NF-e) and duplicatas, 1 to 180 days',
    minMonthlyRatePct: new Dec('1.5'), maxMonthlyRatePct: new Dec('6'), minTermDays: 1, maxTermDays: 180,
    minValueBrl: Money.of('100.00'), maxValueBrl: Money.of('5000000.00'), active: true,
  }, ids.product);
}

/**
 * `ring` seals the admins' TOTP secrets; the benches, which sign no staff in, seed without one and
 * their admins have no second factor.
 */
export async function seedDev(db: Knex, ring?: CipherRing): Promise<void> {
  for (const o of DEV_SEED.originators) {
    await db('originators').insert({ id: o.id, name: o.name }).onConflict('id').ignore();
    // A data folder seeded before collection by PIX gets the key too.
    await db('originators').where({ id: o.id }).whereNull('collection_pix_key').update({ collection_pix_key: o.collectionPixKey });
    await seedPricing(db, o.id);
    const existing = await db('api_credentials').where({ id: o.credentialId }).first();
    if (!existing) {
      await db('api_credentials').insert({
        id: o.credentialId, originator_id: o.id, client_id: o.clientId, secret_hash: await hashSecret(o.secret),
        env: 'sandbox', scopes: [...CLIENT_SCOPES],
      });
    }
  }
  await seedStaff(db, DEV_SEED.backoffice, null);
  for (const admin of [DEV_SEED.admin, DEV_SEED.admin2]) await seedStaff(db, admin, ring ? ring.sealText(admin.totpSecret) : null);
}

async function seedStaff(db: Knex, staff: { id: string; email: string; password: string; name: string; roles: readonly StaffRole[] }, totpSealed: string | null): Promise<void> {
  const access = { roles: [...staff.roles], scopes: scopesOfRoles(staff.roles), ...(totpSealed ? { totp_secret_sealed: totpSealed } : {}) };
  if (!(await db('users').where({ id: staff.id }).first())) {
    await db('users').insert({
      id: staff.id, email: staff.email, name: staff.name, password_hash: await hashPassword(staff.password),
      kind: 'backoffice', originator_id: null, ...access,
    });
  } else {
    // A data folder seeded before the roles gets them too.
    await db('users').where({ id: staff.id }).update(access);
  }
}
