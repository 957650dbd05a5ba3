import { expect } from 'chai';
import { eventId, EventType } from '../../domain/events';
import { sharedApi, sharedWorker, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, directBody } from '../support/operations';
import { untilStatus } from '../support/lifecycle';
import { closeTemporal, listedWorkflows, operationWorkflow } from '../support/temporal';
import { eventually } from '../support/webhooks';
import { bodyOf, created } from '../support/operation-checks';

const eventsOf = (operationId: string) => testDb()('events').whereRaw("data->>'operation_id' = ?", [operationId]);

/** Waits until the operation's events include `types`, and returns them by type. */
async function recorded(operationId: string, types: EventType[]) {
  return eventually(async () => {
    const rows = await eventsOf(operationId);
    expect(rows.map((r) => r.event_type)).to.include.members(types);
    return new Map(rows.map((r) => [r.event_type as string, r]));
  }, 20_000);
}

/** DESIGN.md §4: every committed operation has its workflow `operation-<id>` and records its birth events. */
describe('POST /v1/operations/direct: every operation is born with its workflow', () => {
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token, originatorId } = await buildOperationsIntegrator(client));
  });
  after(closeTemporal);

  it('starts exactly one workflow operation-<id> with the search attributes and a state query', async () => {
    const op = await created(client, token, bodyOf('60000.00'));
    const workflow = await eventually(() => operationWorkflow(op.id));
    expect(workflow.description.type).to.equal('operationWorkflow');
    expect(workflow.description.status.name).to.equal('RUNNING');
    expect(workflow.searchAttributes).to.deep.equal({ originatorId, lifecycleStatus: 'WAITING_APPROVAL', displayNumber: op.display_number, environment: 'dev' });
    expect(workflow.state).to.include({ operationId: op.id, displayNumber: op.display_number, status: 'WAITING_APPROVAL' });
    expect(await listedWorkflows(`DisplayNumber = "${op.display_number}"`, 1)).to.deep.equal([`operation-${op.id}`]);
    const outbox = await testDb()('workflow_outbox').where({ workflow_id: `operation-${op.id}` });
    expect(outbox).to.have.length(1);
    expect(outbox[0].started_at).to.be.an.instanceOf(Date);
  });

  it('records operation.created and operation.approved for a born-approved operation, with deterministic event ids', async () => {
    const op = await created(client, token, bodyOf('10000.00'));
    const events = await recorded(op.id, ['operation.created', 'operation.approved']);
    expect(events.has('operation.approval_requested')).to.equal(false);
    const base = { operation_id: op.id, display_number: op.display_number, originator_id: originatorId };
    const createdEvent = events.get('operation.created')!;
    expect(createdEvent.event_id).to.equal(eventId(`operation-${op.id}`, 'operation.created'));
    expect(createdEvent.data).to.include({
      ...base, lifecycle_status: 'APPROVED_DIRECT', opr_gross_future_value: '10000.00', requested_net_future_value: '10000.00',
      opr_present_value_discount: '250.00', opr_net_present_liquid_value: '9750.00',
    });
    const approved = events.get('operation.approved')!;
    expect(approved.event_id).to.equal(eventId(`operation-${op.id}`, 'operation.approved'));
    expect(approved.data).to.include({ ...base, lifecycle_status: 'APPROVED_DIRECT' });
    expect(new Date(approved.data.approved_at).toISOString()).to.equal(approved.data.approved_at);
  });

  it('records operation.created and operation.approval_requested (no operation.approved) for one queued for a human', async () => {
    const op = await created(client, token, bodyOf('60000.00'));
    const events = await recorded(op.id, ['operation.created', 'operation.approval_requested']);
    expect(events.has('operation.approved')).to.equal(false);
    expect(events.get('operation.created')!.data).to.include({ operation_id: op.id, lifecycle_status: 'WAITING_APPROVAL' });
    expect(events.get('operation.approval_requested')!.data).to.include({ operation_id: op.id, display_number: op.display_number, originator_id: originatorId });
    expect(events.get('operation.approval_requested')!.event_id).to.equal(eventId(`operation-${op.id}`, 'operation.approval_requested'));
  });

  it('dispatches the contract by itself once born approved, and the assignor\'s next operation is an ADDENDUM', async () => {
    const body = directBody();
    const first = await created(client, token, body);
    expect(first.contract_details.type).to.equal('FULL_CONTRACT');
    await untilStatus(client, token, first.id, 'CONTRACT_SENT');
    const second = await created(client, token, { ...body, receivables: bodyOf('1000.00').receivables });
    expect(second.assignor_id).to.equal(first.assignor_id);
    expect(second.contract_details).to.deep.equal({ type: 'ADDENDUM', signature_date: null, signer_token: null });
  });
});
