/**
 * The sandbox e-sign provider's signing page, as a signer uses it: open the page at `sign_url`,
 * then press its Sign button. The function returned presses it (so a caller can time the press).
 */
export async function signingForm(signUrl: string): Promise<() => Promise<{ status: number; html: string }>> {
  const page = await fetch(signUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`signing page answered ${page.status}: ${html}`);
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const button = /<button type="submit" name="([^"]+)" value="([^"]+)"/.exec(html);
  if (!action || !button) throw new Error('signing page has no signing form');
  return async () => {
    const response = await fetch(new URL(action.replace(/&amp;/g, '&'), signUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ [button[1]]: button[2] }).toString(),
    });
    return { status: response.status, html: await response.text() };
  };
}

export async function signThroughPage(signUrl: string): Promise<{ status: number; html: string }> {
  return (await signingForm(signUrl))();
}
