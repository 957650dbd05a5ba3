import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { anotherApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { startReceiver, TestReceiver } from '../support/https-receiver';
import { eventually } from '../support/webhooks';
import { laptopPage, launchChromium, screenshot, shows, signInToConsole } from './browser';

/**
 * Issue #27 in the console: the operation page's timeline shows each event with its deliveries,
 * and the Webhooks page shows an originator's endpoints with their health, to staff.
 */
describe('backoffice console: webhook deliveries and endpoint health, in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let client: ApiClient;
  const receivers: TestReceiver[] = [];

  before(async () => {
    browser = await launchChromium();
    await sharedWorker();
    const api = await anotherApi({ WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' });
    client = new ApiClient(api.url);
    ({ page, problems } = await laptopPage(browser, api.url));
  });
  after(async () => {
    await browser?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });
  afterEach(() => { expect(problems, 'CSP violations or page errors').to.deep.equal([]); });

  it('shows each timeline event with its deliveries, and the originator\'s endpoints with their failure streak', async function () {
    this.timeout(60_000);
    const healthy = await startReceiver(() => 204);
    const failing = await startReceiver(() => 500);
    receivers.push(healthy, failing);
    const { token, originatorId } = await buildOperationsIntegrator(client);
    for (const [target, events] of [[healthy, ['operation.created', 'operation.approved']], [failing, ['operation.created']]] as const) {
      const res = await client.post('/v1/webhooks', { url: target.url('/hooks'), events }, { token });
      expect(res.status, res.text).to.equal(201);
    }
    const created = await createDirect(client, token, directBody({ email: `console-webhooks+${Date.now()}@example.com` }));
    expect(created.status, created.text).to.equal(201);
    await healthy.waitForRequests(2);
    await failing.waitForRequests(2);

    const staff = await buildUser();
    await signInToConsole(page, staff);

    await page.goto(`/backoffice/#/operations/${created.body.id}`);
    const deliveries = page.getByRole('list', { name: 'Deliveries of operation.created' });
    await eventually(async () => {
      await page.reload();
      await shows(deliveries, `delivered to ${healthy.url('/hooks')} (attempt 1, 204)`, 3_000);
      await shows(deliveries, `failed to ${failing.url('/hooks')} (attempt 2, 500)`, 3_000);
    }, 20_000);
    await screenshot(page, 'operation-deliveries');

    await page.getByRole('link', { name: 'Webhooks' }).click();
    const originator = (await client.get('/v1/backoffice/originators', { token: await staffToken(staff) })).body.items.find((o: { id: string }) => o.id === originatorId);
    await page.getByLabel('Originator', { exact: true }).selectOption({ label: originator.name });
    await page.getByRole('button', { name: 'Show' }).click();
    const endpoints = page.getByRole('table', { name: '2 endpoint(s)' });
    await shows(endpoints.getByRole('row', { name: new RegExp(healthy.url('/hooks').replace(/[.?]/g, '\\$&')) }), 'enabled');
    const failingRow = endpoints.getByRole('row', { name: new RegExp(failing.url('/hooks').replace(/[.?]/g, '\\$&')) });
    await shows(failingRow, /\d+ since /);
    await screenshot(page, 'webhooks');
  });

  async function staffToken(user: { email: string; password: string }): Promise<string> {
    const res = await client.post('/v1/auth/login', user);
    return res.body.access_token;
  }
});
