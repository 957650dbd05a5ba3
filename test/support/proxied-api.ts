import { startApi, RunningApi } from '../../api/server';
import { ApiClient } from './http';
import { prepareDatabase, testConfig } from './stack';

/**
 * An api of the file's own behind one trusted proxy hop (the right-most X-Forwarded-For entry is the
 * client), with the settings given; started before the file's tests and closed after them.
 */
export function proxiedApi(overrides: Record<string, string>): { client: ApiClient } {
  const handle = {} as { client: ApiClient };
  let api: RunningApi | undefined;
  before(async () => {
    await prepareDatabase();
    api = await startApi(testConfig({ TRUST_PROXY: '1', ...overrides }));
    handle.client = new ApiClient(api.url);
  });
  after(async () => { await api?.close(); });
  return handle;
}
