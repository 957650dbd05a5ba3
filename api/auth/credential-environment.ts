import type { ServiceEnv } from '../../platform/config/config';

/** DESIGN.md §8: the prefix of `client_id` says which environment a credential belongs to. */
export function credentialEnvironment(clientId: string): 'prod' | 'sandbox' | null {
  if (clientId.startsWith('zk_live_')) return 'prod';
  if (clientId.startsWith('zk_sbx_') || clientId.startsWith('zk_test_')) return 'sandbox';
  return null;
}

/** A deployment runs one environment; `dev` accepts sandbox credentials. */
export function acceptsCredential(serviceEnv: ServiceEnv, credentialEnv: 'prod' | 'sandbox'): boolean {
  return serviceEnv === 'prod' ? credentialEnv === 'prod' : credentialEnv === 'sandbox';
}
