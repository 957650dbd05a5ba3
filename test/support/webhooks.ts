import type { HostResolver } from '../../domain/url-guard';
import { RECEIVER_HOST, testCa } from './https-receiver';

/**
 * Test host names live in the reserved `.test` domain and "resolve" through fixed tables: no DNS
 * query leaves the machine, and the only address ever connected to is loopback. The api's table
 * adds names in each refused range (registration only judges them, never connects); the worker's
 * knows the receiver alone, so even a misrouted delivery could not reach another address.
 */
export const WORKER_HOSTS: Record<string, string[]> = { [RECEIVER_HOST]: ['127.0.0.1'] };

export const API_HOSTS: Record<string, string[]> = {
  ...WORKER_HOSTS,
  'public.test': ['8.8.8.8', '2001:4860:4860::8888'],
  'ten.test': ['10.20.30.40'],
  'one-seven-two.test': ['172.20.0.5'],
  'one-nine-two.test': ['192.168.1.20'],
  'ula.test': ['fd12:3456::1'],
  'loopback.test': ['127.0.0.1'],
  'mapped-loopback.test': ['::ffff:127.0.0.1'],
  'link-local.test': ['169.254.169.254'],
  'reserved.test': ['240.0.0.1'],
  'half-private.test': ['8.8.8.8', '10.0.0.1'],
};

export const fixedResolver = (table: Record<string, string[]>): HostResolver => async (host) => table[host.toLowerCase()] ?? [];

/** Short enough that all eight attempts fit in a test, in the production schedule's shape. */
export const TEST_RETRY_SCHEDULE_MS = [0, 200, 400, 600, 800, 1000, 1200, 1400];

/**
 * The span of failures that disables an endpoint under test: the 5 days of production in seconds,
 * longer than a whole test schedule of failures (so only a streak kept up on purpose reaches it).
 */
export const TEST_DISABLE_AFTER_MS = 15_000;

/** The worker's webhook settings under test: reach the in-process receiver and trust its CA. */
export async function webhookWorkerEnv(): Promise<Record<string, string>> {
  return {
    WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
    WEBHOOKS_EXTRA_CA_PEM: (await testCa()).caPem,
    WEBHOOK_RETRY_SCHEDULE_MS: TEST_RETRY_SCHEDULE_MS.join(','),
    WEBHOOK_DISABLE_AFTER_MS: String(TEST_DISABLE_AFTER_MS),
  };
}

/** Retries `check` until it stops throwing: state reached asynchronously (deliveries, records). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
