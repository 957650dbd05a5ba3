import { expect } from 'chai';
import type { ApiClient } from './http';
import { buildIntegrator } from './factories';

/**
 * Proves a resource is invisible to another tenant: reading it is 404 with `notFoundCode`, and
 * the other tenant's list does not contain it. `id` belongs to the owner's originator.
 */
export async function expectInvisibleToOtherTenant(client: ApiClient, options: {
  id: string;
  itemPath: (id: string) => string;
  listPath?: string;
  notFoundCode: string;
}): Promise<void> {
  const stranger = await buildIntegrator(client);
  const read = await client.get(options.itemPath(options.id), { token: stranger.token });
  expect(read.status, `another tenant reading ${options.itemPath(options.id)}`).to.equal(404);
  expect(read.body).to.deep.equal({ detail: options.notFoundCode });
  if (options.listPath) {
    const list = await client.get(`${options.listPath}${options.listPath.includes('?') ? '&' : '?'}limit=200`, { token: stranger.token });
    expect(list.status).to.equal(200);
    expect(list.body.items.map((item: { id: string }) => item.id)).to.not.include(options.id);
  }
}
