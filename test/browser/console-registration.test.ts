import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { createTitleNfeRecheckActivities } from '../../activities/title-nfe-recheck';
import { anotherApi, closeApi, sharedSandbox, testConfig, testDb } from '../support/stack';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { ApiClient } from '../support/http';
import { buildUser } from '../support/factories';
import { cnpj, formatCnpj, nfeOf } from '../support/documents';
import { createDirect, directBody } from '../support/operations';
import { signAll, untilStatus } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { registerAtSandbox } from '../support/registration';
import { sefazClientFor, setSandboxNfe } from '../support/sefaz';
import { readTitle } from '../support/titles';
import { eventually } from '../support/webhooks';
import { AWAITING_REGISTRAR_ACTION } from '../../domain/stuck-operations';
import { consoleStack, laptopPage, screenshot, shows, signInToConsole } from './browser';

type Registration = { status: string; duplicata_id: string | null; act_id: string | null; registered_at: string | null };
type Read = { titles: { id: string; external_id: string; registration: Registration }[] };

/**
 * The operation page shows each title's act at the sandbox escriturador (registered on the normal
 * flow, refused after a competitor's transfer, not registrable for a BOLETO) and the dispute the
 * daily NF-e re-check after payout found, in English and pt-BR; the stuck view names the titles an
 * operation waits on at the escriturador (an outage), with the runbook's action.
 */
describe('console: each title\'s registration at the escriturador and its dispute, in Chromium', function () {
  this.timeout(240_000);
  const stack = consoleStack();
  let page: Page;
  let client: ApiClient;
  let token: string;
  before(async () => {
    ({ page, client, token } = stack);
    await registerAtSandbox(stack.originatorId);
    await signInToConsole(page, await buildUser());
  });

  /** An operation of a fresh assignor with a receivable per name in `nfes` backed by its NF-e (after a BOLETO when `boleto`), up to CONTRACT_SENT. */
  async function sent(nfes: string[], boleto = false) {
    const assignor = cnpj();
    const keys: Record<string, string> = {};
    const receivables = nfes.map((externalId) => {
      const nfe = nfeOf(assignor);
      keys[externalId] = nfe.nfe_key;
      return receivable({ external_id: externalId, ...nfe });
    });
    if (boleto) receivables.unshift(receivable({ external_id: 'BOLETO', backing_type: 'BOLETO', identifier: 'nosso-numero-9' }));
    const res = await createDirect(client, token, directBody({ cnpj: assignor, receivables }));
    expect(res.status, res.text).to.equal(201);
    const id = res.body.id as string;
    await untilStatus(client, token, id, 'CONTRACT_SENT');
    return { id, keys, displayNumber: res.body.display_number as string };
  }
  const registrationOf = (read: Read, externalId: string) => read.titles.find((title) => title.external_id === externalId)!.registration;
  const rowOf = (table: Locator, title: string) => table.getByRole('row').filter({ has: page.getByRole('cell', { name: title, exact: true }) });
  const cellsOf = (table: Locator, title: string) => rowOf(table, title).getByRole('cell').allTextContents();
  const registrations = () => page.getByRole('table', { name: 'Registration of each title' });
  const SAO_PAULO_MINUTE = /^\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}$/;

  it('shows a registered title\'s escriturador, duplicata, act, negotiation type and time, a BOLETO not registrable, then the dispute the daily re-check found; in pt-BR too', async () => {
    const { id, keys } = await sent(['NF-REG'], true);
    await signAll(client, token, id);
    const paid: Read = await untilStatus(client, token, id, 'PAID', 90_000);
    const registered = registrationOf(paid, 'NF-REG');
    expect(registered.status).to.equal('registered');

    await page.goto(`/backoffice/#/operations/${id}`);
    await shows(registrations(), 'NF-REG');
    const cells = await cellsOf(registrations(), 'NF-REG');
    expect(cells.slice(0, 6)).to.deep.equal(['NF-REG', 'registered', 'sandbox', registered.duplicata_id, registered.act_id, 'acquisition with recourse (aquisicao_com_regresso)']);
    expect(cells[6]).to.match(SAO_PAULO_MINUTE);
    expect(await rowOf(registrations(), 'NF-REG').locator('time').getAttribute('datetime')).to.equal(registered.registered_at);
    expect(cells[7]).to.equal('—');
    expect(await cellsOf(registrations(), 'BOLETO')).to.deep.equal(['BOLETO', 'not registrable (no NF-e model 55)', '—', '—', '—', '—', '—', '—']);
    expect(await page.getByRole('region', { name: 'Titles in dispute' }).count()).to.equal(0);

    // After payout the payer says the operation never happened; the daily re-check (its activity, run here) finds it.
    await setSandboxNfe(client, token, keys['NF-REG'], 'authorized', 'not_performed');
    const sefazUrl = (await sharedSandbox()).sefazUrl;
    expect(await createTitleNfeRecheckActivities({ db: testDb(), sefaz: sefazClientFor(sefazUrl, { SEFAZ_KEY_REQUESTS_PER_HOUR: '100' }), ring: new CipherRing(testConfig().payloadKeys) }).recheckOpenTitleNfes()).to.be.at.least(1);
    const titleId = paid.titles.find((title) => title.external_id === 'NF-REG')!.id;
    const { dispute } = await readTitle(client, token, titleId);
    expect(dispute).to.include({ reason: 'nfe_disowned_by_payer', payer_event: 'not_performed' });

    await page.reload();
    const disputes = page.getByRole('table', { name: 'Disputes after payout' });
    await shows(disputes, 'NF-REG');
    const disputed = await cellsOf(disputes, 'NF-REG');
    expect(disputed.slice(0, 5)).to.deep.equal(['NF-REG', 'disowned by its payer', 'not performed (210240)', dispute.cstat, dispute.xmotivo]);
    expect(disputed[5]).to.match(SAO_PAULO_MINUTE);
    expect(await rowOf(disputes, 'NF-REG').locator('time').getAttribute('datetime')).to.equal(dispute.disputed_at);
    await screenshot(page, 'operation-registration');

    await page.getByRole('button', { name: 'Mostrar o console em português' }).click();
    const registros = page.getByRole('table', { name: 'Registro de cada título' });
    await shows(registros, 'NF-REG');
    expect((await cellsOf(registros, 'NF-REG')).slice(1, 6)).to.deep.equal(['registrado', 'sandbox', registered.duplicata_id, registered.act_id, 'aquisição com regresso (aquisicao_com_regresso)']);
    expect((await cellsOf(registros, 'BOLETO'))[1]).to.equal('não registrável (sem NF-e modelo 55)');
    const contestacoes = page.getByRole('table', { name: 'Contestações após o pagamento' });
    expect((await cellsOf(contestacoes, 'NF-REG')).slice(1, 3)).to.deep.equal(['negada pelo sacado', 'operação não realizada (210240)']);
    await screenshot(page, 'operation-registration-pt-br');
    await page.getByRole('button', { name: 'Show the console in English' }).click();
    await shows(registrations(), 'NF-REG');
  });

  it('shows the title whose duplicata another financier acquired before the signature as refused and why, and our other act cancelled', async () => {
    const { id, keys } = await sent(['NF-FREE', 'NF-TAKEN']);
    const competitor = await client.post('/v1/sandbox/registrar/transfers', { nfe_key: keys['NF-TAKEN'], holder_document: formatCnpj(cnpj()) }, { token });
    expect(competitor.status, competitor.text).to.equal(200);
    await signAll(client, token, id);
    const cancelled: Read = await untilStatus(client, token, id, 'CANCELLED', 90_000);
    const refused = registrationOf(cancelled, 'NF-TAKEN');
    expect(refused).to.include({ status: 'refused', act_id: null });
    const free = registrationOf(cancelled, 'NF-FREE');

    await page.goto(`/backoffice/#/operations/${id}`);
    await shows(registrations(), 'NF-TAKEN');
    expect(await cellsOf(registrations(), 'NF-TAKEN')).to.deep.equal([
      'NF-TAKEN', 'refused', 'sandbox', refused.duplicata_id, '—', 'acquisition with recourse (aquisicao_com_regresso)', '—',
      'already transferred to another holder (already_transferred)',
    ]);
    expect((await cellsOf(registrations(), 'NF-FREE')).slice(0, 5)).to.deep.equal(['NF-FREE', 'cancelled', 'sandbox', free.duplicata_id, free.act_id]);
    await screenshot(page, 'operation-registration-refused');
  });

  it('lists an operation waiting at the escriturador (outage) past 10 minutes among the stuck, with the titles awaited and the runbook\'s action; it pays once the escriturador is back', async () => {
    const { id, displayNumber } = await sent(['NF-WAIT']);
    expect((await client.post('/v1/sandbox/registrar/outage', { seconds: 600 }, { token })).status).to.equal(200);
    try {
      await signAll(client, token, id);
      await untilStatus(client, token, id, 'SIGNED');
      await eventually(async () => expect(await testDb()('nfe_checks').where({ operation_id: id, status: 'passed' }).select('id')).to.have.length(1), 60_000);
      // An api eleven minutes ahead, where the wait is past SIGNED's 10 minutes.
      const later = await anotherApi({}, { now: () => new Date(Date.now() + 11 * 60_000) });
      try {
        const ahead = await laptopPage(stack.browser, later.url);
        await signInToConsole(ahead.page, await buildUser());
        await ahead.page.goto('/backoffice/#/stuck');
        const stuck = ahead.page.getByRole('table', { name: /operation\(s\) waiting too long/ }).getByRole('row').filter({ hasText: displayNumber });
        await shows(stuck, AWAITING_REGISTRAR_ACTION);
        await shows(stuck, 'Waiting at the escriturador sandbox: NF-WAIT (not requested)');
        await screenshot(ahead.page, 'stuck-registration');
        expect(ahead.problems, 'CSP violations or page errors').to.deep.equal([]);
        await ahead.page.context().close();
      } finally {
        await closeApi(later);
      }
    } finally {
      await client.post('/v1/sandbox/registrar/outage', { seconds: 0 }, { token });
    }
    const paid: Read = await untilStatus(client, token, id, 'PAID', 120_000);
    await page.goto(`/backoffice/#/operations/${id}`);
    await shows(registrations(), 'NF-WAIT');
    expect((await cellsOf(registrations(), 'NF-WAIT')).slice(0, 5)).to.deep.equal(['NF-WAIT', 'registered', 'sandbox', registrationOf(paid, 'NF-WAIT').duplicata_id, registrationOf(paid, 'NF-WAIT').act_id]);
  });
});
