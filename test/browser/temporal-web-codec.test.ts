import { expect } from 'chai';
import path from 'node:path';
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ensureTemporalWeb } from '../../scripts/lib/cluster-tools.mjs';
import { startTemporalWeb } from '../../scripts/lib/temporal-cluster.mjs';
import { freePort } from '../../scripts/lib/ports.mjs';
import { anotherApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect } from '../support/operations';
import { launchChromium, shows, signedInToConsole } from './browser';

/** A key of the operation workflow's input only (not of its id, type or search attributes): seen only when the input is decoded. */
const INPUT_KEY = 'initialStatus';

/**
 * Issue #28: the cluster's Temporal Web (the pinned UI server, configured by the function `npm run
 * cluster` uses: the api's codec endpoint, credentials included) beside an api configured as the
 * cluster configures it (TEMPORAL_WEB_URL, so its origin may call the codec). An operator signs in
 * to the console, follows its link to the workflow and reads the input decoded, with nothing set
 * by hand; a user without `backoffice:operate` sees only ciphertext.
 */
describe('Temporal Web reads the workflow decoded for an operator signed in to the console', function () {
  this.timeout(120_000);
  let browser: Browser;
  let web: { url: string; stop(): Promise<void> };
  let apiUrl: string;
  let operationId: string;
  const dir = path.resolve('.data', `temporal-web-${process.pid}`);

  before(async () => {
    const port = await freePort();
    apiUrl = (await anotherApi({ TEMPORAL_WEB_URL: `http://127.0.0.1:${port}` })).url;
    web = await startTemporalWeb({
      binary: ensureTemporalWeb(), dir, temporalAddress: process.env.TEMPORAL_ADDRESS, port,
      codecEndpoint: `${apiUrl}/v1/backoffice/codec`, logFile: path.join(dir, 'temporal-web.log'),
    });
    await sharedWorker();
    const client = new ApiClient(apiUrl);
    const { token } = await buildOperationsIntegrator(client);
    const created = await createDirect(client, token);
    expect(created.status, created.text).to.equal(201);
    operationId = created.body.id;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await web?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const signedIn = (scopes: string[]): Promise<Page> => signedInToConsole(browser, apiUrl, scopes);

  it('signed in with backoffice:operate, the console\'s link opens the workflow in Temporal Web with its input decoded', async () => {
    const page = await signedIn(['backoffice:read', 'backoffice:operate']);
    await page.goto(`/backoffice/#/operations/${operationId}`);
    // The link opens a new tab of the same browser session (target _blank): the page re-renders while
    // it polls the operation, so its address is followed in a tab opened here rather than by a click.
    const link = page.getByRole('link', { name: 'Workflow in Temporal Web' });
    await link.waitFor({ state: 'visible', timeout: 30_000 });
    const href = String(await link.getAttribute('href'));
    expect(href).to.equal(`${web.url}/namespaces/default/workflows/operation-${operationId}`);
    expect(await link.getAttribute('target')).to.equal('_blank');
    const temporalWeb = await page.context().newPage();
    await temporalWeb.goto(href);
    await shows(temporalWeb.locator('body'), INPUT_KEY, 60_000);
    await shows(temporalWeb.locator('body'), operationId);
  });

  it('signed in without backoffice:operate, the same page shows the input as ciphertext', async () => {
    const page = await signedIn(['backoffice:read']);
    const temporalWeb = await page.context().newPage();
    await temporalWeb.goto(`${web.url}/namespaces/default/workflows/operation-${operationId}`);
    // The codec refused the call (no session cookie), and the payload shows as stored: "binary/encrypted", base64 in its metadata.
    await shows(temporalWeb.locator('body'), /Data decoding failed/, 60_000);
    const body = await temporalWeb.locator('body').innerText();
    expect(body).to.include('YmluYXJ5L2VuY3J5cHRlZA');
    expect(body).to.not.include(INPUT_KEY);
  });
});
