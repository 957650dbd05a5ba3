import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { registrationReconciliationScheduleId } from '../../domain/workflow-ids';
import { SANDBOX_REGISTRAR_API_KEY } from '../../platform/config/config';
import { cnpj, nfeOf } from '../support/documents';
import { createDirect, directBody, operationsStack } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { listEvents } from '../support/events';
import { scrape, valueOf } from '../support/metrics';
import { registerAtSandbox } from '../support/registration';
import { sharedApi, sharedSandbox, testConfig, testDb } from '../support/stack';
import { temporal } from '../support/temporal';
import { eventually } from '../support/webhooks';

const DAY_MS = 86_400_000;
const MISMATCH = 'registration.reconciliation_mismatch';

/**
 * The daily registration reconciliation (the `registration-reconciliation` Schedule, and staff's
 * `POST /v1/backoffice/registrations/reconcile`): our acts compared with the escriturador's records.
 */
describe('the daily reconciliation of our acts with the escriturador\'s', function () {
  this.timeout(180_000);
  const stack = operationsStack();
  before(async () => { await registerAtSandbox(stack.originatorId); });

  /** A PAID operation of one NF-e title, its act registered: the title's id and its registration. */
  async function registeredTitle(): Promise<{ titleId: string; actId: string; duplicataId: string }> {
    const assignor = cnpj();
    const res = await createDirect(stack.client, stack.token, directBody({ cnpj: assignor, receivables: [receivable({ external_id: 'NF-RECON', ...nfeOf(assignor) })] }));
    expect(res.status, res.text).to.equal(201);
    const paid = await untilPaid(stack.client, stack.token, res.body.id);
    expect(paid.titles[0].registration.status).to.equal('registered');
    const { registration } = paid.titles[0];
    return { titleId: paid.titles[0].id, actId: registration.act_id, duplicataId: registration.duplicata_id };
  }
  const reconcile = async () => {
    const res = await stack.client.post('/v1/backoffice/registrations/reconcile', undefined, { token: stack.backoffice });
    expect(res.status, res.text).to.equal(200);
    return res.body as { checked: number; mismatches: { title_id: string; duplicata_id: string; act_id: string; kind: string }[] };
  };
  const mismatchEvents = async (titleId: string) => (await listEvents(stack.client, stack.token, `type=${MISMATCH}&limit=100`)).items.filter((e) => e.data.title_id === titleId);
  /** Someone cancels our act at the escriturador without telling us. */
  const cancelBehindOurBack = async (actId: string) => {
    const res = await fetch(`${(await sharedSandbox()).escrituradorUrl}/registro/atos/${actId}/cancelamento`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_REGISTRAR_API_KEY}`, 'idempotency-key': randomUUID() }, body: '{}',
    });
    expect(res.status, await res.text()).to.equal(200);
  };

  it('finds nothing when our acts and the escriturador\'s agree', async () => {
    const { titleId } = await registeredTitle();
    const found = await reconcile();
    expect(found.checked).to.be.at.least(1);
    // Other files may share the database (TEST_JOBS=1): only this title is judged.
    expect(found.mismatches.filter((m) => m.title_id === titleId)).to.deep.equal([]);
    expect(await mismatchEvents(titleId)).to.deep.equal([]);
    const audited = await testDb()('audit_events').where({ action: 'registration.reconcile' }).orderBy('seq', 'desc').first();
    expect(audited.after).to.deep.equal({ checked: found.checked, mismatches: found.mismatches.length });
  });

  it('finds an act cancelled at the escriturador behind our back: the event to the originator once a day, the metric, our record untouched', async () => {
    const { titleId, actId, duplicataId } = await registeredTitle();
    await cancelBehindOurBack(actId);
    const { metricsUrl } = await sharedApi();
    const counted = async () => valueOf(await scrape(metricsUrl), 'receivables_registration_reconciliation_mismatches_total', { kind: 'act_cancelled_there' });
    const before = await counted();
    const found = await reconcile();
    expect(found.mismatches.filter((m) => m.title_id === titleId)).to.deep.equal([{ title_id: titleId, duplicata_id: duplicataId, act_id: actId, kind: 'act_cancelled_there' }]);
    expect(await counted()).to.equal(before + 1);
    const [event, ...more] = await mismatchEvents(titleId);
    expect(more).to.deep.equal([]);
    expect(event.data).to.include({ title_id: titleId, act_id: actId, kind: 'act_cancelled_there', registration_status: 'registered', registrar: 'sandbox', external_id: 'NF-RECON' });
    // Asked again the same day: found again, reported once.
    expect((await reconcile()).mismatches.map((m) => m.title_id)).to.include(titleId);
    expect(await mismatchEvents(titleId)).to.have.length(1);
    expect((await stack.client.get(`/v1/titles/${titleId}`, { token: stack.token })).body.registration.status).to.equal('registered');
  });

  it('runs every day by a Temporal Schedule the worker creates, and a run triggered now reports what it finds', async () => {
    const { titleId, actId } = await registeredTitle();
    await cancelBehindOurBack(actId);
    const handle = (await temporal()).schedule.getHandle(registrationReconciliationScheduleId(testConfig().temporal.taskQueue));
    const described = await handle.describe();
    expect(described.spec.intervals?.[0]).to.include({ every: DAY_MS });
    expect(described.action).to.include({ workflowType: 'registrationReconciliation' });
    await handle.trigger();
    await eventually(async () => expect((await mismatchEvents(titleId)).map((e) => e.data.kind)).to.deep.equal(['act_cancelled_there']), 60_000);
  });
});
