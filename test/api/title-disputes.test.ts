import { expect } from 'chai';
import { randomInt } from 'node:crypto';
import { createTitleNfeRecheckActivities } from '../../activities/title-nfe-recheck';
import { composeNfeKey } from '../../domain/nfe-key';
import { STUCK_RULES } from '../../domain/stuck-operations';
import { titleNfeRecheckScheduleId } from '../../domain/workflow-ids';
import { cnpj, nfeOf } from '../support/documents';
import { createDirect, directBody, operationsStack } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { readTitle } from '../support/titles';
import { listEvents } from '../support/events';
import { sefazClientFor, setSandboxNfe } from '../support/sefaz';
import { sharedSandbox, testConfig, testDb } from '../support/stack';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { temporal } from '../support/temporal';
import { eventually } from '../support/webhooks';

const DAY_MS = 86_400_000;

/**
 * After payout, each open title's NF-e is asked about daily (the `title-nfe-recheck` Schedule): a
 * payer disowning it, or the NF-e cancelled, puts the title in dispute (`dispute`, `title.disputed`,
 * the stuck view), once, and moves no money.
 */
describe('titles after payout: the daily re-check of their NF-e', function () {
  this.timeout(180_000);
  const stack = operationsStack();
  const recheck = async () => createTitleNfeRecheckActivities({ db: testDb(), sefaz: sefazClientFor((await sharedSandbox()).sefazUrl, { SEFAZ_KEY_REQUESTS_PER_HOUR: '100' }), ring: new CipherRing(testConfig().payloadKeys) }).recheckOpenTitleNfes();

  /** A paid operation whose one receivable is backed by an NF-e of the assignor (`yearMonth` its issue month). */
  async function paidWithNfe(yearMonth?: string) {
    const assignor = cnpj();
    const number = randomInt(1, 999_999_999);
    const nfe = yearMonth
      ? { nfe_number: String(number), nfe_serie: '1', nfe_issue_date: `20${yearMonth.slice(0, 2)}-${yearMonth.slice(2)}-10`, nfe_key: composeNfeKey({ yearMonth, issuer: assignor, serie: 1, number, code: String(number % 1e8) }) }
      : nfeOf(assignor);
    const key = nfe.nfe_key;
    const res = await createDirect(stack.client, stack.token, directBody({ cnpj: assignor, receivables: [receivable({ external_id: 'NF-DISPUTED', ...nfe })] }));
    expect(res.status, res.text).to.equal(201);
    await untilPaid(stack.client, stack.token, res.body.id);
    return { operationId: res.body.id as string, titleId: res.body.titles[0].id as string, key };
  }
  const disputedEvents = async (titleId: string) => (await listEvents(stack.client, stack.token, `object_id=${titleId}&type=title.disputed`)).items;

  it('puts a title whose payer says not_performed in dispute once, however often it runs; the title stays payable and no money moves', async () => {
    const { operationId, titleId, key } = await paidWithNfe();
    const before = await readTitle(stack.client, stack.token, titleId);
    expect(before.dispute).to.equal(null);
    await setSandboxNfe(stack.client, stack.token, key, 'authorized', 'not_performed');
    const payouts = await testDb()('disbursements').where({ operation_id: operationId }).count<{ count: string }[]>('id');

    expect(await recheck()).to.be.at.least(1);
    await recheck();
    const after = await readTitle(stack.client, stack.token, titleId);
    expect(after.dispute).to.include({ reason: 'nfe_disowned_by_payer', cstat: '138', payer_event: 'not_performed' });
    expect(after).to.include({ status: before.status, outstanding_balance: before.outstanding_balance });
    const events = await disputedEvents(titleId);
    expect(events).to.have.length(1);
    expect(events[0].data).to.include({ title_id: titleId, operation_id: operationId, nfe_key: key, reason: 'nfe_disowned_by_payer', payer_event: 'not_performed' });
    expect(await testDb()('disbursements').where({ operation_id: operationId }).count<{ count: string }[]>('id')).to.deep.equal(payouts);

    const stuck = (await stack.client.get('/v1/backoffice/stuck-operations?limit=200', { token: stack.backoffice })).body.items.find((op: { id: string }) => op.id === operationId);
    expect(stuck).to.include({ lifecycle_status: 'PAID', action: STUCK_RULES.find((rule) => rule.status === 'PAID')!.action });
  });

  it('puts a title whose NF-e got cancelled in dispute (nfe_cancelled); leaves alone one authorized, and one past its 180 days', async () => {
    const cancelled = await paidWithNfe();
    const fine = await paidWithNfe();
    const old = await paidWithNfe('2501');
    await setSandboxNfe(stack.client, stack.token, cancelled.key, 'cancelled');
    await setSandboxNfe(stack.client, stack.token, old.key, 'cancelled');
    await recheck();
    expect((await readTitle(stack.client, stack.token, cancelled.titleId)).dispute).to.include({ reason: 'nfe_cancelled', cstat: '101', payer_event: null });
    expect((await readTitle(stack.client, stack.token, fine.titleId)).dispute).to.equal(null);
    expect((await readTitle(stack.client, stack.token, old.titleId)).dispute).to.equal(null);
    expect(await disputedEvents(old.titleId)).to.deep.equal([]);
  });

  it('runs every day by a Temporal Schedule the worker creates, and a run triggered now disputes what it finds', async () => {
    const { titleId, key } = await paidWithNfe();
    await setSandboxNfe(stack.client, stack.token, key, 'authorized', 'unknown_operation');
    const handle = (await temporal()).schedule.getHandle(titleNfeRecheckScheduleId(testConfig().temporal.taskQueue));
    const described = await handle.describe();
    expect(described.spec.intervals?.[0]).to.include({ every: DAY_MS });
    expect(described.action).to.include({ workflowType: 'titleNfeRecheck' });
    await handle.trigger();
    await eventually(async () => expect((await readTitle(stack.client, stack.token, titleId)).dispute).to.include({ reason: 'nfe_disowned_by_payer', payer_event: 'unknown_operation' }), 60_000);
    expect(await disputedEvents(titleId)).to.have.length(1);
  });
});
