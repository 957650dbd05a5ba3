import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser } from '../support/factories';
import { buildOperationsIntegrator } from '../support/operations';
import { buildConfirmingProduct, signedAwaitingPayer } from '../support/payer-confirmation';
import { AWAITING_PAYER_ACTION } from '../../domain/stuck-operations';
import { laptopPage, launchChromium, screenshot, shows, signInToConsole } from './browser';

/** The console shows an operation held by its NF-e check: on the operation page each title's check, in the stuck view the action and SEFAZ's last answer. */
describe('console: NF-e checks before the PIX, in Chromium', function () {
  this.timeout(180_000);
  let browser: Browser;
  before(async () => { browser = await launchChromium(); });
  after(async () => { await browser?.close(); });

  it('shows the pending check awaiting the payer on the operation page and in the stuck view with the runbook\'s action', async () => {
    const api = await sharedApi();
    await sharedWorker();
    const { page, problems } = await laptopPage(browser, api.url);
    const client = new ApiClient(api.url);
    const { token, originatorId } = await buildOperationsIntegrator(client);
    const { id, key, check } = await signedAwaitingPayer(client, token, await buildConfirmingProduct(originatorId, 5));

    await signInToConsole(page, await buildUser());
    await page.goto(`/backoffice/#/operations/${id}`);
    const checks = page.getByRole('table', { name: 'NF-e checks before the PIX' });
    await shows(checks, 'waiting for the payer\'s confirmation');
    const cells = await checks.getByRole('row').nth(1).getByRole('cell').allTextContents();
    expect(cells.slice(0, 5)).to.deep.equal(['NF-PAYER', 'pending', 'waiting for the payer\'s confirmation', check.cstat, check.xmotivo]);
    await screenshot(page, 'operation-nfe-checks');

    await page.goto('/backoffice/#/stuck');
    const stuck = page.getByRole('table', { name: /operation\(s\) waiting too long/ }).getByRole('row').filter({ hasText: key });
    await shows(stuck, AWAITING_PAYER_ACTION);
    await shows(stuck, `cStat ${check.cstat} (${check.xmotivo})`);
    await screenshot(page, 'stuck-nfe-check');
    expect(problems, 'CSP violations or page errors').to.deep.equal([]);
  });
});
