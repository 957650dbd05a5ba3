import { expect } from 'chai';
import { crcValid, parseEmv, PIX_GUI } from '../../domain/collection/br-code';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { operationWithTitles, readTitle } from './titles.support';
import { collectOnPix, sandboxPsp } from './pix-collection.support';

/**
 * Issue #31 over the whole service: an originator that collects on a PIX key gets a charge with
 * due date (`cobv`) at the sandbox PSP for each title when the operation reaches PAID.
 */
describe('titles collected by PIX', function () {
  this.timeout(180_000);
  let client: ApiClient;
  let token: string;
  let story: Awaited<ReturnType<typeof operationWithTitles>>;
  let pixKey: string;

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    const integrator = await buildOperationsIntegrator(client, { graceDays: 2 });
    token = integrator.token;
    pixKey = await collectOnPix(integrator.originatorId);
    story = await operationWithTitles(client, token, { current: '10000.00' });
    await untilPaid(client, token, story.operation.id);
  });

  const chargedTitle = (titleId: string) => eventually(async () => {
    const title = await readTitle(client, token, titleId);
    expect(title.pix_charge, 'no charge yet').to.not.equal(null);
    return title;
  });

  it('issues a cobv per title at PAID, for the balance, the payer and the due date, on the originator\'s key', async () => {
    const title = await chargedTitle(story.current);
    expect(title.pix_charge).to.include({ txid: story.current.replace(/-/g, ''), status: 'ATIVA' });
    const charge = await (await sandboxPsp()).getCharge(title.pix_charge.txid);
    expect(charge).to.include({ amount: title.outstanding_balance, status: 'ATIVA', brCode: title.pix_charge.br_code });
    // Payable through the grace days: the charge expires when the title would turn OVERDUE.
    const dueDate = new Date(`${title.due_date}T00:00:00-03:00`);
    expect(Date.parse(title.pix_charge.expires_at) - dueDate.getTime()).to.equal(3 * 86_400_000);
    expect(pixKey).to.match(/^cobranca/);
  });

  it('gives the payer a BR Code that parses: EMV tags, the br.gov.bcb.pix account with the charge\'s location, a valid CRC16', async () => {
    const title = await chargedTitle(story.current);
    const code: string = title.pix_charge.br_code;
    const fields = parseEmv(code);
    expect(fields.get('00')).to.equal('01');
    const account = parseEmv(fields.get('26')!);
    expect(account.get('00')).to.equal(PIX_GUI);
    const charge = await (await sandboxPsp()).getCharge(title.pix_charge.txid);
    expect(account.get('25')).to.equal(charge!.location);
    expect(fields.get('53')).to.equal('986');
    expect(crcValid(code)).to.equal(true);
  });
});
