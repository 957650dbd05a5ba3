import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { Money } from '../../domain/money';
import { eventually } from '../support/webhooks';
import { laptopPage, launchChromium, screenshot, shows } from './browser';

/** Above the test policy's auto-approval limit (50,000.00): the operation waits for a human. */
const needsApproval = (tag: string) => directBody({
  email: `${tag}+${Date.now()}@example.com`,
  receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })],
});

describe('backoffice console in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let client: ApiClient;
  let token: string;
  let originatorName: string;
  let originatorId: string;
  let staff: { email: string; password: string };

  before(async () => {
    browser = await launchChromium();
    const api = await sharedApi();
    client = new ApiClient(api.url);
    await sharedWorker();
    const integrator = await buildOperationsIntegrator(client);
    token = integrator.token;
    originatorId = integrator.originatorId;
    staff = await buildUser();
    const originators = await client.get('/v1/backoffice/originators', { token: await loginAs(client, staff) });
    originatorName = originators.body.items.find((o: { id: string }) => o.id === integrator.originatorId).name;
    ({ page, problems } = await laptopPage(browser, api.url));
  });
  after(async () => { await browser?.close(); });
  afterEach(() => { expect(problems, 'CSP violations or page errors').to.deep.equal([]); });

  const created = async (body: Record<string, unknown>) => {
    const res = await createDirect(client, token, body);
    expect(res.status, res.text).to.equal(201);
    return res.body as { id: string; display_number: string; titles: { id: string; external_id: string }[] };
  };
  const heading = () => page.getByRole('heading', { level: 1 });
  const confirmIn = async (button: string, fill: Record<string, string> = {}) => {
    const dialog = page.getByRole('dialog');
    for (const [label, value] of Object.entries(fill)) await dialog.getByLabel(label).fill(value);
    await dialog.getByRole('button', { name: button }).click();
  };
  const openOperation = async (displayNumber: string) => {
    await page.goto('/backoffice/#/queue');
    await page.getByLabel('Originator').selectOption({ label: originatorName });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: displayNumber }).click();
    await shows(heading(), displayNumber);
  };

  it('says in one line how to install Chromium when it is missing', async () => {
    const missing = await launchChromium('/nonexistent/chromium').then(() => null, (err: Error) => err.message);
    expect(missing).to.equal('Chromium not found at /nonexistent/chromium: install it with `node scripts/install-chromium.mjs` (apt-get install chromium)');
  });

  it('signs in with the staff login, under a strict CSP', async () => {
    const response = await page.goto('/backoffice/');
    expect(response!.headers()['content-security-policy']).to.include("script-src 'self'").and.include("style-src 'self'").and.not.include('unsafe-inline');
    await shows(heading(), /^Sign in$/);
    await screenshot(page, 'sign-in', false);
    await page.getByLabel('E-mail').fill(staff.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await shows(page.getByRole('status'), 'E-mail or password is wrong. (401 invalid_credentials)');
    await page.getByLabel('Password').fill(staff.password);
    await page.keyboard.press('Enter');
    await shows(heading(), /^Approval queue$/);
  });

  it('lists a waiting operation in the queue, filtered by originator, oldest first', async () => {
    const first = await created(needsApproval('queue-a'));
    const secondBody = needsApproval('queue-b');
    const second = await created(secondBody);
    const someoneElse = await buildOperationsIntegrator(client);
    const elsewhere = (await createDirect(client, someoneElse.token, needsApproval('queue-other'))).body;
    await untilStatus(client, token, second.id, 'WAITING_APPROVAL');
    await untilStatus(client, someoneElse.token, elsewhere.id, 'WAITING_APPROVAL');
    const originators = await client.get('/v1/backoffice/originators', { token: await loginAs(client, staff) });
    const elsewhereName = originators.body.items.find((o: { id: string }) => o.id === someoneElse.originatorId).name;
    await page.goto('/backoffice/#/queue');
    const table = page.getByRole('table', { name: 'Operations waiting for approval' });
    // The unfiltered queue holds every originator's waiting operations, oldest first: a suite leaves more than a page of them, so each originator is checked through its filter.
    await page.getByLabel('Originator').selectOption({ label: elsewhereName });
    await page.getByRole('button', { name: 'Filter' }).click();
    await shows(page.getByRole('navigation', { name: 'Pages' }), /^Previous1–1 of 1Next$/);
    await shows(table, elsewhere.display_number);
    await page.getByLabel('Originator').selectOption({ label: originatorName });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(new RegExp(`originator_id=${originatorId}`));
    await shows(page.getByRole('navigation', { name: 'Pages' }), /^Previous1–2 of 2Next$/);
    const rows = table.getByRole('row');
    await shows(rows.nth(1), first.display_number);
    await shows(rows.nth(2), second.display_number);
    expect(await table.textContent()).not.to.include(elsewhere.display_number);
    expect(await page.getByLabel('Originator').evaluate((select) => (select as unknown as { value: string }).value)).to.equal(originatorId);
    await screenshot(page, 'approval-queue');

    await page.getByLabel('Assignor document (CPF/CNPJ)').fill(String(secondBody.cnpj));
    await page.getByRole('button', { name: 'Filter' }).click();
    await shows(page.getByRole('navigation', { name: 'Pages' }), /^Previous1–1 of 1Next$/);
    await shows(rows.nth(1), second.display_number);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Created from').fill(tomorrow);
    await page.getByRole('button', { name: 'Filter' }).click();
    await shows(page.getByRole('navigation', { name: 'Pages' }), /^Previous0–0 of 0Next$/);
    await page.getByRole('button', { name: 'Clear' }).click();
    // Cleared: every originator's waiting operations again, the three of this test among them (maybe beyond page one).
    await shows(page.getByRole('navigation', { name: 'Pages' }), /^Previous1–\d+ of \d+Next$/);
    const total = Number((await page.getByRole('navigation', { name: 'Pages' }).textContent())!.match(/of (\d+)/)![1]);
    expect(total).to.be.at.least(3);
    expect(await page.getByLabel('Originator').evaluate((select) => (select as unknown as { value: string }).value)).to.equal('');
  });

  it('approves an operation and shows it moving on to the contract', async () => {
    const op = await created(needsApproval('approve'));
    await untilStatus(client, token, op.id, 'WAITING_APPROVAL');
    await openOperation(op.display_number);
    await page.getByRole('button', { name: 'Approve' }).click();
    await confirmIn('Approve', { 'Note (optional)': 'Within the assignor\'s history' });
    await shows(page.getByRole('status'), `${op.display_number} is now PRE_APPROVED`);
    await shows(heading(), 'CONTRACT_SENT', 20_000);
    await shows(page.getByRole('table', { name: 'Dispatch attempts' }), 'SENT');
    // The e-sign provider's own statuses, in the console's words.
    await shows(page.getByRole('table', { name: 'Signers (document in progress)' }), 'waiting to sign');
    await screenshot(page, 'operation');
  });

  it('four-eyes: the queue shows "1 of 2" and who approved; the second approver is told it moved on', async () => {
    const dual = await buildOperationsIntegrator(client, { dualApprovalAboveBrl: Money.of('60000.00') });
    const res = await createDirect(client, dual.token, needsApproval('four-eyes'));
    expect(res.status, res.text).to.equal(201);
    const op = res.body as { id: string; display_number: string };
    await untilStatus(client, dual.token, op.id, 'WAITING_APPROVAL');
    const other = await buildUser({ roles: ['approver'] });
    const first = await client.post(`/v1/backoffice/operations/${op.id}/approve`, {}, { token: await loginAs(client, other) });
    expect(first.status, first.text).to.equal(200);
    await page.goto(`/backoffice/#/queue?originator_id=${dual.originatorId}`);
    const table = page.getByRole('table', { name: 'Operations waiting for approval' });
    await shows(table.getByRole('row').filter({ hasText: op.display_number }), `1 of 2 (${other.email})`);
    await page.getByRole('link', { name: op.display_number }).click();
    await shows(heading(), op.display_number);
    await page.getByRole('button', { name: 'Approve' }).click();
    await confirmIn('Approve');
    await shows(page.getByRole('status'), `${op.display_number} is now PRE_APPROVED`);
  });

  it('denies an operation only with a reason, and shows the reason', async () => {
    const op = await created(needsApproval('deny'));
    await untilStatus(client, token, op.id, 'WAITING_APPROVAL');
    await openOperation(op.display_number);
    // Keyboard only: the decision button, then Escape cancels the dialog and nothing is sent.
    await page.getByRole('button', { name: 'Deny' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect((await client.get(`/v1/operations/${op.id}`, { token })).body.lifecycle_status).to.equal('WAITING_APPROVAL');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deny' }).click();
    // The required reason keeps the dialog open: nothing was sent.
    await page.getByRole('dialog').waitFor();
    await confirmIn('Deny', { 'Reason (required)': 'Payer concentration above appetite' });
    await shows(heading(), 'DENIED');
    await shows(page.getByRole('list').filter({ hasText: 'operation.denied' }), 'Payer concentration above appetite');
    await untilStatus(client, token, op.id, 'DENIED');
  });

  it('says a refusal in words: approving an operation decided meanwhile is 409', async () => {
    const op = await created(needsApproval('race'));
    await untilStatus(client, token, op.id, 'WAITING_APPROVAL');
    await openOperation(op.display_number);
    const other = await loginAs(client, staff);
    expect((await client.post(`/v1/backoffice/operations/${op.id}/deny`, { reason: 'decided by a colleague' }, { token: other })).status).to.equal(200);
    await page.getByRole('button', { name: 'Approve' }).click();
    await confirmIn('Approve');
    await shows(page.getByRole('status'), 'cannot be approved');
    await shows(page.getByRole('status'), '(409 operation_cannot_be_approved)');
  });

  it('shows a refused PIX in the stuck view and retries it to PAID, then records the payer\'s payment', async () => {
    const op = await created(directBody({ email: `pix-reject-once+console${Date.now()}@example.com` }));
    await untilStatus(client, token, op.id, 'CONTRACT_SENT');
    await signAll(client, token, op.id);
    await untilStatus(client, token, op.id, 'DISBURSEMENT_FAILED');

    await page.getByRole('link', { name: 'Stuck operations' }).click();
    await shows(heading(), /^Stuck operations$/);
    const row = page.getByRole('row').filter({ hasText: op.display_number });
    await shows(row, 'DISBURSEMENT_FAILED');
    await shows(row, 'retry the disbursement');
    expect(await row.getByRole('link', { name: 'Temporal Web' }).getAttribute('href')).to.match(new RegExp(`/workflows/operation-${op.id}$`));
    await screenshot(page, 'stuck-operations');
    await row.getByRole('button', { name: `Retry disbursement ${op.display_number}` }).click();
    await confirmIn('Retry disbursement');
    await shows(page.getByRole('status'), `${op.display_number} is now DISBURSING`);
    await untilStatus(client, token, op.id, 'PAID');

    // The payer pays part by boleto (retried while title tracking starts, just after PAID); staff record the rest.
    const title = op.titles[0];
    await eventually(async () => {
      const part = await client.post(`/v1/sandbox/titles/${title.id}/payer-payments`, { paid_amount_brl: '100.00', external_id: `boleto-part-${op.id}` }, { token });
      expect(part.status, part.text).to.equal(201);
    });
    await page.goto(`/backoffice/#/operations/${op.id}`);
    await shows(heading(), 'PAID');
    await shows(page.getByRole('table', { name: 'Disbursement attempts' }), 'REJECTED');
    await page.getByRole('button', { name: `Record payment on ${title.external_id}` }).click();
    await confirmIn('Record payment', { 'Payment reference (bank id)': `boleto-${op.id}` });
    await shows(page.getByRole('status'), `title ${title.external_id} is now PAID, R$ 0.00 remaining`);
    await untilStatus(client, token, op.id, 'SETTLED');
    await page.reload();
    await shows(heading(), 'SETTLED');
    await shows(page.getByRole('table', { name: 'Payer payments' }), `boleto-${op.id}`);
  });

  it('shows the api\'s own figures on the System page and refreshes them in place', async () => {
    await page.goto('/backoffice/#/system');
    await shows(heading(), /^System$/);
    const creations = page.getByRole('table', { name: 'Requests per route' }).getByRole('row').filter({ hasText: '/v1/operations/direct' });
    const requestsNow = async () => Number(await creations.getByRole('cell').nth(2).textContent());
    const before = await requestsNow();
    expect(before).to.be.greaterThan(0);
    await shows(page.getByRole('table', { name: 'Operations per state' }), 'WAITING_APPROVAL');
    await created(needsApproval('system-page'));
    await eventually(async () => expect(await requestsNow()).to.equal(before + 1), 15_000);
    await shows(page.getByRole('definition').first(), /^\d+$/);
    await screenshot(page, 'system');
  });

  it('returns to sign-in when the session is no longer valid, and signs out', async () => {
    await page.evaluate(`sessionStorage.setItem('backoffice.session', '${JSON.stringify({ token: 'expired.token.value', email: 'x@example.com' })}')`);
    await page.goto('/backoffice/#/stuck');
    await shows(heading(), /^Sign in$/);
    await page.getByText('Your session has ended. Sign in again.').waitFor();
    await page.getByLabel('E-mail').fill(staff.email);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await shows(heading(), /^Stuck operations$/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await shows(heading(), /^Sign in$/);
    expect(await page.evaluate('sessionStorage.getItem("backoffice.session")')).to.equal(null);
  });

  it('renders the integrator docs: a section per tag of the live document, and the guides', async () => {
    const document = (await client.get('/v1/openapi.json')).body;
    const usedTags = new Set<string>(Object.values(document.paths as Record<string, Record<string, { tags?: string[] }>>)
      .flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])));
    await page.goto('/docs/');
    const sections = page.locator('.opblock-tag-section');
    await sections.first().waitFor({ timeout: 20_000 });
    // Each section's heading is the tag's name followed by its description.
    const rendered = await page.locator('.opblock-tag-section h3').evaluateAll((headings) => headings.map((h) => h.getAttribute('data-tag')));
    expect(rendered).to.have.members([...usedTags]);
    await screenshot(page, 'api-reference', false);
    await page.getByRole('link', { name: 'Call sequence' }).click();
    await page.getByRole('heading', { name: '4. create' }).waitFor();
    await page.getByRole('link', { name: 'Sandbox magic values' }).click();
    await page.getByRole('cell', { name: 'pix-reject', exact: true }).waitFor();
  });
});
