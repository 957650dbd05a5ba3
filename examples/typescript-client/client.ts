import createClient from 'openapi-fetch';
import type { paths } from './schema';

/** The generated client: every path, body and answer typed from the API's OpenAPI document. */
export function apiClient(baseUrl: string, token?: string) {
  return createClient<paths>({ baseUrl, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

export type ApiClient = ReturnType<typeof apiClient>;

/** The answer's data, or an error that says the status and the contract's `detail`. */
export function expectData<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}
