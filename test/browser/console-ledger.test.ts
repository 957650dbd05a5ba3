import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { Money } from '../../domain/money';
import { businessDate } from '../../domain/pricing';
import { unidentifiedReceipt } from '../../domain/ledger/collection-postings';
import { LedgerPostingsRepository } from '../../db/repositories/ledger-postings';
import { sharedApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser } from '../support/factories';
import { buildOperationsIntegrator } from '../support/operations';
import { laptopPage, launchChromium, screenshot, shows, signInToConsole } from './browser';

/** Issue #48 in the console: the Ledger page's trial balance, reconciliation runs and a run's mismatches, in English and Portuguese. */
describe('backoffice console: the Ledger page, in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let page: Page;
  let problems: string[];

  before(async () => {
    browser = await launchChromium();
    ({ page, problems } = await laptopPage(browser, (await sharedApi()).url));
  });
  after(async () => { await browser?.close(); });
  afterEach(() => { expect(problems, 'CSP violations or page errors').to.deep.equal([]); });

  it('shows an originator\'s trial balance, reconciles a date, lists the mismatch found and lets an approver accept it', async () => {
    const { originatorId } = await buildOperationsIntegrator(new ApiClient((await sharedApi()).url));
    const originator = await testDb()('originators').where({ id: originatorId }).first('name');
    // A PIX our books received that the PSP never did: the line reconciliation must find.
    const endToEndId = `E99999008${Date.now()}CONSOLE`;
    await testDb().transaction((trx) => new LedgerPostingsRepository(trx, originatorId)
      .post(unidentifiedReceipt({ receiptId: randomUUID(), amount: Money.of('45.67'), endToEndId }, new Date())));

    await signInToConsole(page, await buildUser());
    await page.getByRole('link', { name: 'Ledger' }).click();
    await shows(page.getByRole('heading', { level: 1 }), /^Ledger$/);
    await page.getByLabel('Originator', { exact: true }).selectOption({ label: originator.name });
    // The page for every originator shows the same total and stays until the chosen one is drawn:
    // acting on it would reconcile without the originator. The mark goes with the page it is on.
    await page.locator('#main h1').evaluate((heading) => heading.setAttribute('data-stale', ''));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#main h1:not([data-stale])').waitFor();
    const balance = page.getByRole('table', { name: /^Trial balance at / });
    await shows(balance.getByRole('row', { name: /unidentified_receipts/ }), 'R$ 45.67');
    await shows(balance.getByRole('row', { name: /Total/ }), /R\$ 45\.67\s*R\$ 45\.67/);

    await page.getByLabel('Business date', { exact: true }).fill(businessDate(new Date()));
    await page.getByRole('button', { name: 'Reconcile now' }).click();
    await shows(page.locator('#status'), /reconciled: 2 mismatch\(es\) found/);
    const found = page.getByRole('table', { name: '2 mismatch(es)' });
    await shows(found.getByRole('row', { name: new RegExp(endToEndId) }), 'A ledger line the PSP lacks');
    await shows(found, 'The closing balances differ');
    // The originator chosen stays chosen while the page moves to the run.
    await shows(page.getByRole('table', { name: /^Trial balance at / }).getByRole('row', { name: /Total/ }), /R\$ 45\.67\s*R\$ 45\.67/);
    expect(await page.getByLabel('Originator', { exact: true }).inputValue()).to.equal(originatorId);
    await screenshot(page, 'ledger');

    await page.getByRole('button', { name: 'Accept' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason (required)').fill('Booked on purpose by the test');
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await shows(page.getByRole('table', { name: 'Reconciliation runs' }).getByRole('row', { name: /collection/ }), 'accepted');
    await shows(page.getByRole('main'), 'Booked on purpose by the test');

    await page.getByRole('button', { name: 'Português' }).click();
    await shows(page.getByRole('heading', { level: 1 }), /^Razão contábil$/);
    await shows(page.getByRole('table', { name: '2 divergência(s)' }), 'Lançamento do razão ausente no PSP');
    await shows(page.getByRole('table', { name: /^Balancete em / }), 'R$ 45,67');
  });
});
