import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { hashPassword, hashSecret } from '../../platform/crypto/passwords';
import { BACKOFFICE_SCOPES, CLIENT_SCOPES } from '../../domain/principal';
import { scopesOfRoles, StaffRole } from '../../domain/staff-roles';
import { testConfig, testDb } from './stack';
import type { ApiClient } from './http';

/** Factories make each test's own data: `buildX(overrides)` writes real rows. */
export interface TestCredential {
  id: string;
  originatorId: string;
  clientId: string;
  secret: string;
  scopes: string[];
}

export async function buildOriginator(overrides: { name?: string } = {}): Promise<string> {
  const id = uuidv7();
  await testDb()('originators').insert({ id, name: overrides.name ?? `Originator ${id.slice(-6)}` });
  return id;
}

export async function buildCredential(overrides: Partial<Omit<TestCredential, 'id'>> & { env?: 'prod' | 'sandbox'; expiresAt?: Date } = {}): Promise<TestCredential> {
  const originatorId = overrides.originatorId ?? (await buildOriginator());
  const env = overrides.env ?? 'sandbox';
  const clientId = overrides.clientId ?? `${env === 'prod' ? 'zk_live_' : 'zk_sbx_'}${randomBytes(6).toString('hex')}`;
  const secret = overrides.secret ?? `sk_${randomBytes(12).toString('hex')}`;
  const scopes = overrides.scopes ?? [...CLIENT_SCOPES];
  const id = uuidv7();
  await testDb()('api_credentials').insert({
    id, originator_id: originatorId, client_id: clientId, secret_hash: await hashSecret(secret, testConfig().passwords.scryptLog2N), env, scopes, expires_at: overrides.expiresAt ?? null,
  });
  return { id, originatorId, clientId, secret, scopes };
}

/** A user; with `roles`, a staff member whose scopes are those roles' (issue #29). */
export async function buildUser(overrides: { email?: string; password?: string; scopes?: string[]; roles?: StaffRole[]; kind?: 'backoffice' | 'originator'; originatorId?: string } = {}) {
  const id = uuidv7();
  const email = overrides.email ?? `user-${id.slice(-8)}@example.com`;
  const password = overrides.password ?? `pw-${randomBytes(6).toString('hex')}`;
  await testDb()('users').insert({
    id, email, name: 'Test User', password_hash: await hashPassword(password, testConfig().passwords.scryptLog2N), kind: overrides.kind ?? 'backoffice',
    originator_id: overrides.originatorId ?? null,
    scopes: overrides.scopes ?? (overrides.roles ? scopesOfRoles(overrides.roles) : [...BACKOFFICE_SCOPES]), roles: overrides.roles ?? [],
  });
  return { id, email, password };
}

export async function tokenFor(client: ApiClient, credential: TestCredential, scopes?: string[]): Promise<string> {
  const response = await client.post('/v1/auth/token', { client_id: credential.clientId, client_secret: credential.secret, ...(scopes ? { scopes } : {}) });
  if (response.status !== 200) throw new Error(`token exchange failed: ${response.status} ${response.text}`);
  return response.body.access_token;
}

export async function loginAs(client: ApiClient, user: { email: string; password: string }): Promise<string> {
  const response = await client.post('/v1/auth/login', { email: user.email, password: user.password });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.text}`);
  return response.body.access_token;
}

/** An originator with a credential and a token: the usual starting point of an API test. */
export async function buildIntegrator(client: ApiClient, overrides: Parameters<typeof buildCredential>[0] = {}) {
  const credential = await buildCredential(overrides);
  return { credential, originatorId: credential.originatorId, token: await tokenFor(client, credential) };
}
