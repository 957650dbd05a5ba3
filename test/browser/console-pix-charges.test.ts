import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { crcValid } from '../../domain/collection/br-code';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser } from '../support/factories';
import { buildOperationsIntegrator } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { operationWithTitles, readTitle } from '../support/titles';
import { collectOnPix } from '../support/pix-collection';
import { laptopPage, launchChromium, screenshot, shows } from './browser';

/** Issue #31 in the console: the operation page shows each title's PIX charge, its BR Code and a QR code of it. */
describe('backoffice console: PIX charges to payers, in Chromium', function () {
  this.timeout(180_000);
  let browser: Browser;
  let page: Page;
  let problems: string[];

  before(async () => {
    browser = await launchChromium();
    const api = await sharedApi();
    await sharedWorker();
    ({ page, problems } = await laptopPage(browser, api.url));
  });
  after(async () => { await browser?.close(); });
  afterEach(() => { expect(problems, 'CSP violations or page errors').to.deep.equal([]); });

  it('shows the BR Code and a QR code that renders, under the strict CSP', async () => {
    const client = new ApiClient((await sharedApi()).url);
    const integrator = await buildOperationsIntegrator(client);
    await collectOnPix(integrator.originatorId);
    const story = await operationWithTitles(client, integrator.token, { current: '10000.00' });
    await untilPaid(client, integrator.token, story.operation.id);
    const title = await eventually(async () => {
      const read = await readTitle(client, integrator.token, story.current);
      expect(read.pix_charge).to.not.equal(null);
      return read;
    });

    const staff = await buildUser();
    await page.goto('/backoffice/');
    await page.getByLabel('E-mail').fill(staff.email);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await shows(page.getByRole('heading', { level: 1 }), /^Approval queue$/);
    await page.goto(`/backoffice/#/operations/${story.operation.id}`);
    const charges = page.getByRole('table', { name: 'PIX charges' });
    await shows(charges, 'ATIVA');
    const code = (await charges.locator('code.br-code').textContent())!;
    expect(code).to.equal(title.pix_charge.br_code);
    expect(crcValid(code)).to.equal(true);
    const qr = charges.getByRole('img', { name: `QR code of the PIX charge of ${title.external_id}` });
    // Decoded and drawn: an image the CSP or a broken SVG refused would have no natural size.
    expect(await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).to.be.greaterThan(0);
    await screenshot(page, 'pix-charges');
  });
});
