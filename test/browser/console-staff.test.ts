import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { totpCode, totpStep } from '../../platform/crypto/totp';
import { Money } from '../../domain/money';
import { receivable } from '../support/simulate';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { untilStatus } from '../support/lifecycle';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { sharedApi, sharedWorker } from '../support/stack';
import { enrolmentTokenOf } from '../support/staff';
import { laptopPage, launchChromium, screenshot, shows } from './browser';

const PASSWORD = 'a-long-enough-password';

/** dd/mm/aaaa HH:MM in São Paulo (UTC−3 all year), worked out apart from the console's own formatting. */
function saoPaulo(iso: string): string {
  const [date, time] = new Date(Date.parse(iso) - 3 * 3_600_000).toISOString().split('T');
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year} ${time.slice(0, 5)}`;
}

/** The console's staff pages (issue #29): Users, Audit trail, four-eyes and audit on the operation page, pt-BR with English one click away. */
describe('backoffice console: staff governance in Chromium', () => {
  let browser: Browser;
  let url: string;
  let client: ApiClient;
  let admin: { id: string; email: string; password: string };
  const opened: { page: Page; problems: string[] }[] = [];

  before(async () => {
    browser = await launchChromium();
    url = (await sharedApi()).url;
    client = new ApiClient(url);
    await sharedWorker();
    admin = await buildUser({ roles: ['admin', 'approver'] });
  });
  after(async () => { await browser?.close(); });
  afterEach(() => { for (const { problems } of opened.splice(0)) expect(problems, 'CSP violations or page errors').to.deep.equal([]); });

  /** A fresh browser session signed in through the console's form (with the code when the account has TOTP). */
  async function signedIn(user: { email: string; password: string; totpSecret?: string }, language: 'en' | null = 'en') {
    const opening = await laptopPage(browser, url, language);
    opened.push(opening);
    const { page } = opening;
    await page.goto('/backoffice/');
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill(user.password);
    await page.locator('#password').press('Enter');
    if (user.totpSecret) {
      await page.locator('#totp').waitFor();
      await page.locator('#totp').fill(totpCode(user.totpSecret, totpStep(new Date())));
      await page.locator('#totp').press('Enter');
    }
    await page.locator('#nav').waitFor();
    return page;
  }
  const heading = (page: Page) => page.getByRole('heading', { level: 1 });

  /**
   * Invited on the admin's Users page with `role`; an approver's role confirmed by a second admin on
   * its own Users page; then enrolled by the person on the console's enrolment page with the token
   * from its mailbox (the key read from the page).
   */
  async function inviteAndEnrol(adminPage: Page, role: 'viewer' | 'approver') {
    await adminPage.goto('/backoffice/#/users');
    await shows(heading(adminPage), /^Users$/);
    const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
    await adminPage.getByLabel('E-mail').fill(email);
    await adminPage.getByLabel('Name').fill(`Invited ${role}`);
    await adminPage.getByLabel('viewer', { exact: true }).setChecked(role === 'viewer');
    await adminPage.getByLabel(role, { exact: true }).check();
    await adminPage.getByRole('button', { name: 'Invite' }).click();
    await shows(adminPage.getByRole('status'), `${email} is invited and has the enrolment token by e-mail${role === 'approver' ? '; the roles approver and admin wait for a second admin' : '.'}`);
    expect(await adminPage.locator('#enrolment-token').count(), 'no token shown to the admin').to.equal(0);
    if (role === 'approver') {
      const confirming = await signedIn(await buildUser({ roles: ['admin'] }));
      await confirming.goto('/backoffice/#/users');
      await confirming.getByRole('button', { name: `Confirm the roles of ${email}` }).click();
      await confirming.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await shows(confirming.getByRole('status'), `${email} now has the roles: approver.`);
    }
    const enrolmentToken = await enrolmentTokenOf(email);
    const enrolling = await laptopPage(browser, url);
    opened.push(enrolling);
    const enrol = async () => {
      await enrolling.page.goto('/backoffice/');
      await enrolling.page.getByRole('link', { name: 'Invited? Enrol with your token' }).click();
      await enrolling.page.getByLabel('Enrolment token').fill(enrolmentToken);
      await enrolling.page.getByLabel('New password').fill(PASSWORD);
      await enrolling.page.getByRole('button', { name: 'Enrol' }).click();
    };
    await enrol();
    await shows(enrolling.page.getByRole('status'), 'Enrolled: your account is active.');
    const totpSecret = (await enrolling.page.locator('#totp-secret').textContent())!;
    return { email, password: PASSWORD, totpSecret, enrolAgain: enrol, enrolPage: enrolling.page };
  }

  it('Users: an admin invites an approver (the token by e-mail, the role confirmed by a second admin), who enrols on the console (once) and signs in with a code; the admin adds a role, disables and enables the account', async () => {
    const page = await signedIn(admin);
    const person = await inviteAndEnrol(page, 'approver');
    const { email } = person;
    const row = page.getByRole('table', { name: 'Staff accounts' }).getByRole('row').filter({ hasText: email });
    await shows(row, 'invited');
    await screenshot(page, 'users');
    expect(person.totpSecret).to.match(/^[A-Z2-7]{32}$/);
    expect(await person.enrolPage.locator('#otpauth').getAttribute('href')).to.include(`secret=${person.totpSecret}`);
    await person.enrolAgain();
    await shows(person.enrolPage.getByRole('status'), '(404 enrolment_token_invalid)');
    const invited = await signedIn(person);
    await shows(heading(invited), /^Approval queue$/);
    expect(await invited.getByRole('link', { name: 'Users' }).isVisible()).to.equal(false);
    expect(await invited.getByRole('link', { name: 'Audit trail' }).isVisible()).to.equal(true);

    await page.reload();
    await shows(row, 'active');
    await page.getByRole('button', { name: `Change the roles of ${email}` }).click();
    await page.getByRole('dialog').getByLabel('analyst').check();
    await page.getByRole('dialog').getByRole('button', { name: 'Save roles' }).click();
    await shows(page.getByRole('status'), `${email} now has the roles: analyst, approver.`);
    const listed = (await client.get('/v1/backoffice/users', { token: await loginAs(client, admin) })).body.items.find((u: { email: string }) => u.email === email);
    expect(listed.roles).to.deep.equal(['analyst', 'approver']);

    await page.getByRole('button', { name: `Disable ${email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await shows(page.getByRole('status'), `${email} is disabled.`);
    await shows(row, 'disabled');
    await invited.getByRole('link', { name: 'Stuck operations' }).click();
    await shows(heading(invited), /^Sign in$/);
    await page.getByRole('button', { name: `Enable ${email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Enable' }).click();
    await shows(page.getByRole('status'), `${email} is active again.`);
  });

  it('never draws a page the admin has left over the one now shown: a slow approval queue answering after the move to Users', async () => {
    const page = await signedIn(admin);
    // The queue's answer held back in the browser (as a loaded api answers it), then the admin moves on.
    let released!: () => void;
    const held = new Promise<void>((resolve) => { released = resolve; });
    let queueAsked!: () => void;
    const asked = new Promise<void>((resolve) => { queueAsked = resolve; });
    await page.route('**/v1/backoffice/approval-queue*', async (request) => {
      queueAsked();
      await held;
      await request.continue().catch(() => undefined);
    });
    await page.reload();
    await asked;
    await page.getByRole('link', { name: 'Users' }).click();
    await shows(heading(page), /^Users$/);
    released();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await heading(page).textContent()).to.equal('Users');
    expect(await page.getByLabel('E-mail').count()).to.equal(1);
    expect(await page.getByRole('status').textContent()).to.equal('');
  });

  it('a viewer sees neither Users nor Audit trail, and the operation page says the audit trail is for admins and approvers', async () => {
    const viewer = await buildUser({ roles: ['viewer'] });
    const page = await signedIn(viewer);
    await shows(heading(page), /^Approval queue$/);
    expect(await page.getByRole('link', { name: 'Users' }).isVisible()).to.equal(false);
    expect(await page.getByRole('link', { name: 'Audit trail' }).isVisible()).to.equal(false);
    const integrator = await buildOperationsIntegrator(client);
    const op = (await createDirect(client, integrator.token)).body as { id: string; display_number: string };
    await page.goto(`/backoffice/#/operations/${op.id}`);
    await shows(heading(page), op.display_number);
    await shows(page.getByRole('region', { name: 'Audit trail' }), 'The audit trail is shown to admins and approvers.');
  });

  it('Audit trail: filters by action, saves the page as CSV, and filters by actor with a click on who', async () => {
    const page = await signedIn(admin);
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await shows(heading(page), /^Audit trail$/);
    await page.getByLabel('Action').fill('user.change');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/action=user.change/);
    const table = page.getByRole('table', { name: 'Audit entries' });
    await shows(table, 'user.change');
    // The address changes at the click, the rows when the filtered page arrives: until then the unfiltered rows show.
    await table.locator('tbody tr td:nth-child(3)').filter({ hasNotText: /^user\.change$/ }).first().waitFor({ state: 'detached' });
    const actions = await table.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(actions.length).to.be.greaterThan(0);
    expect(new Set(actions)).to.deep.equal(new Set(['user.change']));
    await screenshot(page, 'audit-trail');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).to.equal('audit-events.csv');
    const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
    expect(csv[0]).to.match(/^occurred_at,actor_type,actor_id,actor_email,action,/);
    expect(csv.length).to.equal(actions.length + 1);
    expect(csv.slice(1).every((line) => line.includes(',"user.change",'))).to.equal(true);

    await table.getByRole('link', { name: admin.email }).first().click();
    await page.waitForURL(new RegExp(`actor_id=${admin.id}`));
    await shows(table, 'auth.login');
    const who = await table.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(who)).to.deep.equal(new Set([admin.email]));
  });

  it('operation page in pt-BR by default: R$ 70.000,00, São Paulo times, "1 de 2" and who, the approver by e-mail in the timeline and the audit entries; English one click away', async () => {
    const dual = await buildOperationsIntegrator(client, { dualApprovalAboveBrl: Money.of('60000.00') });
    const created = await createDirect(client, dual.token, directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] }));
    const op = created.body as { id: string; display_number: string };
    await untilStatus(client, dual.token, op.id, 'WAITING_APPROVAL');
    const createdAt = (await client.get(`/v1/operations/${op.id}`, { token: dual.token })).body.created_at as string;
    const other = await buildUser({ roles: ['approver'] });
    expect((await client.post(`/v1/backoffice/operations/${op.id}/approve`, {}, { token: await loginAs(client, other) })).status).to.equal(200);

    const page = await signedIn(admin, null);
    expect(await page.evaluate('document.documentElement.lang')).to.equal('pt-BR');
    await shows(page.locator('header'), 'Horários de São Paulo');
    await page.goto(`/backoffice/#/operations/${op.id}`);
    await shows(heading(page), `Operação ${op.display_number}`);
    await shows(page.locator('.lead').first(), `Criada em ${saoPaulo(createdAt)}`);
    await shows(page.locator('#approvals'), `Aprovações: 1 de 2 — ${other.email} em `);
    await shows(page.getByRole('definition').filter({ hasText: 'R$ 70.000,00' }), /^R\$ 70\.000,00$/);

    await page.getByRole('button', { name: 'Aprovar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Aprovar' }).click();
    await shows(page.getByRole('status'), `${op.display_number} agora está em PRE_APPROVED`);
    await shows(page.locator('ol.timeline'), `operation.approved — por ${admin.email}`, 20_000);
    const audit = page.getByRole('table', { name: 'Registros de auditoria desta operação' });
    await shows(audit, admin.email);
    await shows(audit, other.email);
    expect(await audit.locator('tbody tr td:nth-child(3)').allTextContents()).to.deep.equal(['operation.approve', 'operation.approve']);
    for (const cell of [...await audit.locator('tbody tr td:nth-child(5)').allTextContents(), ...await audit.locator('tbody tr td:nth-child(6)').allTextContents()]) expect(cell).to.not.be.oneOf(['', '—']);
    await shows(page.getByRole('table', { name: 'Signatários (documento em andamento)' }), 'aguardando assinatura', 20_000);
    await screenshot(page, 'operation-pt-br');

    await page.getByRole('button', { name: 'Show the console in English' }).click();
    await shows(heading(page), `Operation ${op.display_number}`);
    await shows(page.getByRole('definition').filter({ hasText: 'R$ 70,000.00' }), /^R\$ 70,000\.00$/);
    await shows(page.locator('#approvals'), 'Approvals: 2 of 2');
    await shows(page.getByRole('link', { name: 'Approval queue' }), 'Approval queue');
    await page.reload();
    await shows(heading(page), `Operation ${op.display_number}`);
    await page.getByRole('button', { name: 'Mostrar o console em português' }).click();
    await shows(heading(page), `Operação ${op.display_number}`);
  });
  it('as the issue is done: an admin invites two approvers and a viewer, who enrol and sign in with codes; above the threshold both approvers are needed (the same one twice is refused in words), the viewer is offered no decision, and the audit trail lists both approvals with IPs and request ids', async () => {
    const adminPage = await signedIn(await buildUser({ roles: ['admin'] }));
    const [first, second, viewer] = [await inviteAndEnrol(adminPage, 'approver'), await inviteAndEnrol(adminPage, 'approver'), await inviteAndEnrol(adminPage, 'viewer')];
    const dual = await buildOperationsIntegrator(client, { dualApprovalAboveBrl: Money.of('60000.00') });
    const op = (await createDirect(client, dual.token, directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] }))).body as { id: string; display_number: string };
    await untilStatus(client, dual.token, op.id, 'WAITING_APPROVAL');
    const [firstPage, secondPage, viewerPage] = [await signedIn(first), await signedIn(second), await signedIn(viewer)];
    const open = async (page: Page) => {
      await page.goto(`/backoffice/#/operations/${op.id}`);
      await shows(heading(page), op.display_number);
    };
    const approve = async (page: Page) => {
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    };

    await open(viewerPage);
    expect(await viewerPage.getByRole('group', { name: 'Decisions' }).count()).to.equal(0);
    await open(firstPage);
    await approve(firstPage);
    await shows(firstPage.getByRole('status'), `${op.display_number} has 1 of 2 approvals; a second approver must approve it.`);
    await shows(firstPage.locator('#approvals'), `Approvals: 1 of 2 — ${first.email} at `);
    await approve(firstPage);
    await shows(firstPage.getByRole('status'), '(409 approver_already_approved)');
    await open(secondPage);
    await approve(secondPage);
    await shows(secondPage.getByRole('status'), `${op.display_number} is now PRE_APPROVED`);

    await adminPage.goto(`/backoffice/#/audit?target_id=${op.id}`);
    const table = adminPage.getByRole('table', { name: 'Audit entries' });
    await shows(table, 'operation.approve_refused');
    const column = (n: number) => table.locator(`tbody tr td:nth-child(${n})`).allTextContents();
    expect(await column(3)).to.deep.equal(['operation.approve', 'operation.approve_refused', 'operation.approve']);
    expect(await column(2)).to.deep.equal([second.email, first.email, first.email]);
    for (const cell of [...await column(5), ...await column(6)]) expect(cell).to.not.be.oneOf(['', '—']);
  });
});
