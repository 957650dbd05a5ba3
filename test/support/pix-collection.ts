import { randomUUID } from 'node:crypto';
import { ApiPixClient } from '../../providers/api-pix-client';
import { SANDBOX_COLLECTION_CLIENT } from '../../platform/config/config';
import { sharedSandbox, testDb } from './stack';

/** The sandbox PSP through our own API Pix adapter, as the worker reaches it. */
export async function sandboxPsp(): Promise<ApiPixClient> {
  const { apiPixUrl } = await sharedSandbox();
  return new ApiPixClient({ apiUrl: apiPixUrl, tokenUrl: apiPixUrl.replace(/\/v2$/, '/oauth/token'), ...SANDBOX_COLLECTION_CLIENT, timeoutMs: 5_000 });
}

/** The originator collects on a PIX key of its own (each test's originator a fresh one). */
export async function collectOnPix(originatorId: string): Promise<string> {
  const key = `cobranca+${randomUUID()}@example.com`;
  await testDb()('originators').where({ id: originatorId }).update({ collection_pix_key: key });
  return key;
}

/** The sandbox PSP's raw answer (for schema checks), with a fresh token. */
export async function rawPsp(method: string, path: string, body?: unknown): Promise<{ status: number; type: string | null; body: unknown }> {
  const { apiPixUrl } = await sharedSandbox();
  const basic = Buffer.from(`${SANDBOX_COLLECTION_CLIENT.clientId}:${SANDBOX_COLLECTION_CLIENT.clientSecret}`).toString('base64');
  const token = await fetch(apiPixUrl.replace(/\/v2$/, '/oauth/token'), {
    method: 'POST', headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials',
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const response = await fetch(`${apiPixUrl}${path}`, {
    method, headers: { Authorization: `Bearer ${token.access_token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
}
