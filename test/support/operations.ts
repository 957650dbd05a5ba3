import { Money } from '../../domain/money';
import type { PolicySettings } from '../../db/repositories/policies';
import { buildPricingIntegrator, receivable } from './simulate';
import { cnpj } from './documents';
import { newIdempotencyKey } from './idempotency';
import { sharedApi, sharedWorker } from './stack';
import { ApiClient } from './http';
import { buildUser, loginAs } from './factories';
import { closeTemporal } from './temporal';

/** A policy that lets operations through: every limit layer configured, auto-approval up to 50,000.00. */
export const OPERATIONS_POLICY: Partial<PolicySettings> = {
  aggregateLimitBrl: Money.of('100000000.00'),
  autoApproveLimitBrl: Money.of('50000.00'),
};

export async function buildOperationsIntegrator(client: ApiClient, policy: Partial<PolicySettings> = {}) {
  return buildPricingIntegrator(client, { policy: { ...OPERATIONS_POLICY, ...policy } });
}

/** A valid direct-creation body: a company assignor (PIX on its CNPJ) and one receivable of 10,000.00. */
export function directBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Comercial Exemplo Ltda',
    type: 'J',
    cnpj: cnpj(),
    email: 'finance@comercial.example',
    bank: {},
    receivables: [receivable()],
    ...overrides,
  };
}

export async function createDirect(client: ApiClient, token: string, body: Record<string, unknown> = directBody()) {
  return client.post('/v1/operations/direct', body, { token, headers: { 'Idempotency-Key': newIdempotencyKey() } });
}

/** The usual start of an operations test: the shared api and worker, and an integrator with OPERATIONS_POLICY. */
export async function startOperationsTest() {
  const client = new ApiClient((await sharedApi()).url);
  await sharedWorker();
  return { client, ...(await buildOperationsIntegrator(client)) };
}

/** `startOperationsTest` plus a signed-in backoffice user, for tests that decide on operations. */
export async function startOperationsTestWithBackoffice() {
  const started = await startOperationsTest();
  return { ...started, backoffice: await loginAs(started.client, await buildUser()) };
}

/** For a describe block: `startOperationsTestWithBackoffice` before its tests (the fields are filled then), and the test's Temporal client closed after. */
export function operationsStack() {
  const stack = {} as Awaited<ReturnType<typeof startOperationsTestWithBackoffice>>;
  before(async () => { Object.assign(stack, await startOperationsTestWithBackoffice()); });
  after(closeTemporal);
  return stack;
}
