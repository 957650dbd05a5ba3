import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, Browser, Locator, Page } from 'playwright-core';
import { buildUser } from '../support/factories';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { sharedApi, sharedWorker } from '../support/stack';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT_DIR = path.resolve(process.env.SCREENSHOT_DIR ?? '.data/screenshots');

/** Debian's Chromium, headless, driven by playwright-core (which brings no browser of its own). */
export async function launchChromium(executablePath = CHROMIUM): Promise<Browser> {
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: install it with \`node scripts/install-chromium.mjs\` (apt-get install chromium)`);
  // Root (CI) cannot use Chromium's user-namespace sandbox; the pages are our own.
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}

/**
 * A laptop-sized page that records every Content-Security-Policy violation and page error. The
 * console starts in `language` (the tests written in English keep reading it in English; the
 * console's own default, pt-BR, is what a first visit without a choice gets).
 */
export async function laptopPage(browser: Browser, baseURL: string, language: 'en' | null = 'en'): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 768 } });
  if (language) await context.addInitScript((chosen) => { if (!localStorage.getItem('backoffice.language')) localStorage.setItem('backoffice.language', chosen); }, language);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => { if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text()); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return { page, problems };
}

/** The page, into SCREENSHOT_DIR (`npm run screenshots` points it at docs/screenshots). */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage });
}

/**
 * Waits until the located element shows `text` (a substring, or a pattern): playwright-core has
 * no assertion library of its own, and the page changes asynchronously. A wait that times out says
 * what the page showed instead (the located elements' text, the address, the console's status line),
 * so a failure seen once on a loaded machine can be read from its log.
 */
export async function shows(locator: Locator, text: string | RegExp, timeout = 15_000): Promise<void> {
  try {
    await locator.filter({ hasText: text }).first().waitFor({ state: 'visible', timeout });
  } catch (err) {
    const page = locator.page();
    const seen = await locator.allTextContents().catch(() => []);
    const status = await page.locator('#status').textContent({ timeout: 1_000 }).catch(() => null);
    throw new Error(`${(err as Error).message}\nwaited for ${String(text)}; the page showed ${JSON.stringify(seen)} at ${page.url()}, status ${JSON.stringify(status)}`);
  }
}

/** A new page signed in to the console as a new staff user holding `scopes`, on the approval queue it opens with. */
export async function signedInToConsole(browser: Browser, apiUrl: string, scopes: string[]): Promise<Page> {
  const user = await buildUser({ scopes });
  const { page } = await laptopPage(browser, apiUrl);
  await signInToConsole(page, user);
  return page;
}

/** Signs a staff user in through the console's form and waits for the approval queue. */
export async function signInToConsole(page: Page, staff: { email: string; password: string }): Promise<void> {
  await page.goto('/backoffice/');
  await page.getByLabel('E-mail').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await shows(page.getByRole('heading', { level: 1 }), /^Approval queue$/, 30_000);
}

export interface ConsoleStack { browser: Browser; page: Page; problems: string[]; client: ApiClient; token: string; originatorId: string }

/**
 * For a describe block of console tests (the fields are filled before its tests): Chromium, the shared
 * api and worker, an operations integrator, and a laptop page on the api whose CSP violations and page
 * errors fail the test they happened in.
 */
export function consoleStack(): ConsoleStack {
  const stack = {} as ConsoleStack;
  before(async () => {
    stack.browser = await launchChromium();
    const api = await sharedApi();
    stack.client = new ApiClient(api.url);
    await sharedWorker();
    ({ token: stack.token, originatorId: stack.originatorId } = await buildOperationsIntegrator(stack.client));
    ({ page: stack.page, problems: stack.problems } = await laptopPage(stack.browser, api.url));
  });
  after(async () => { await stack.browser?.close(); });
  afterEach(() => { expect(stack.problems, 'CSP violations or page errors').to.deep.equal([]); });
  return stack;
}

