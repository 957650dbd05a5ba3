import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { buildUser } from '../support/factories';
import { createDirect, directBody } from '../support/operations';
import { eventually } from '../support/webhooks';
import { readyClock } from '../support/test-clocks';
import { consoleStack, screenshot, shows, signInToConsole } from './browser';

const DAY_MS = 86_400_000;

describe('console: the test clock of a sandbox operation, in Chromium', function () {
  this.timeout(120_000);
  const stack = consoleStack();

  it('shows the clock\'s time on the operation page and advances it from there', async () => {
    const { page, client, token } = stack;
    const start = new Date(Math.floor(Date.now() / 1000) * 1000 + DAY_MS).toISOString();
    const target = new Date(Date.parse(start) + 45 * DAY_MS).toISOString();
    const clock = await readyClock(client, token, start);
    const created = await createDirect(client, token, directBody({ test_clock_id: clock.id, email: `console-clock+${randomUUID()}@example.com` }));
    expect(created.status, created.text).to.equal(201);

    const staff = await buildUser();
    await signInToConsole(page, staff);

    await page.goto(`/backoffice/#/operations/${created.body.id}`);
    const section = page.getByRole('region', { name: 'Test clock (sandbox)' });
    await shows(section, 'ready');
    expect(await section.locator('time').getAttribute('datetime')).to.equal(clock.frozen_time);

    await section.getByRole('button', { name: 'Advance clock' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('New clock time (ISO 8601)').fill(target);
    await dialog.getByRole('button', { name: 'Advance clock' }).click();
    await shows(page.getByRole('status'), 'The test clock is advancing to');
    await eventually(async () => {
      await page.reload();
      await shows(section, 'ready', 3_000);
      expect(await section.locator('time').getAttribute('datetime')).to.equal(target);
    }, 30_000);
    expect((await client.get(`/v1/test-clocks/${clock.id}`, { token })).body).to.include({ frozen_time: target, status: 'ready' });
    await screenshot(page, 'operation-test-clock');
  });
});
