import type { Knex } from 'knex';
import { hashSecret } from '../../api/auth/passwords';
import { BACKOFFICE_SCOPES, CLIENT_SCOPES } from '../../api/auth/principal';

/** DESIGN.md §12 dev data. Fixed ids so that a second run finds what the first one made. */
export const DEV_SEED = {
  originators: [
    { id: '01930000-0000-7000-8000-00000000000a', name: 'Demo Originator A', clientId: 'zk_sbx_demo_a', secret: 'sk_sbx_demo_a_secret', credentialId: '01930000-0000-7000-8000-0000000000a1' },
    { id: '01930000-0000-7000-8000-00000000000b', name: 'Demo Originator B', clientId: 'zk_sbx_demo_b', secret: 'sk_sbx_demo_b_secret', credentialId: '01930000-0000-7000-8000-0000000000b1' },
  ],
  backoffice: { id: '01930000-0000-7000-8000-0000000000f1', email: 'backoffice@example.com', password: 'backoffice-dev-password', name: 'Backoffice Analyst' },
} as const;

export async function seedDev(db: Knex): Promise<void> {
  for (const o of DEV_SEED.originators) {
    await db('originators').insert({ id: o.id, name: o.name }).onConflict('id').ignore();
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
      id: bo.id, email: bo.email, name: bo.name, password_hash: await hashSecret(bo.password),
      kind: 'backoffice', originator_id: null, scopes: [...BACKOFFICE_SCOPES],
    });
  }
}
