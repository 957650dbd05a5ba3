import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { sharedApi } from '../support/stack';
import { launchChromium, shows, signedInToConsole } from './browser';

const CODEC_PATH = '/v1/backoffice/codec';

/** Issue #28: signing in to the console opens Temporal Web's codec session, signing out closes it. */
describe('console sign-in and the codec session for Temporal Web', () => {
  let browser: Browser;
  let apiUrl: string;

  before(async () => {
    browser = await launchChromium();
    apiUrl = (await sharedApi()).url;
  });
  after(async () => { await browser?.close(); });

  const signedIn = (scopes: string[]): Promise<Page> => signedInToConsole(browser, apiUrl, scopes);
  const codecCookie = async (page: Page) => (await page.context().cookies(`${apiUrl}${CODEC_PATH}/decode`)).find((c) => c.name === 'codec_session');

  it('with backoffice:operate, sets the HttpOnly codec cookie holding the operator\'s token, and clears it on sign-out', async () => {
    const page = await signedIn(['backoffice:read', 'backoffice:operate']);
    const cookie = await codecCookie(page);
    expect(cookie, 'codec_session after sign-in').to.not.equal(undefined);
    expect(cookie).to.include({ path: CODEC_PATH, httpOnly: true, sameSite: 'Strict' });
    const stored = JSON.parse(String(await page.evaluate('sessionStorage.getItem("backoffice.session")')));
    expect(cookie!.value).to.equal(stored.token);
    // The page's own script cannot read it: only the browser's calls to the codec carry it.
    expect(await page.evaluate('document.cookie')).to.not.include('codec_session');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await shows(page.getByRole('heading', { level: 1 }), /^Sign in$/);
    expect(await codecCookie(page), 'codec_session after sign-out').to.equal(undefined);
  });

  it('without backoffice:operate, opens no codec session: Temporal Web keeps showing ciphertext', async () => {
    const page = await signedIn(['backoffice:read']);
    expect(await codecCookie(page)).to.equal(undefined);
  });
});
