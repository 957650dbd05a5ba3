import { expect } from 'chai';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { listEvents } from '../support/events';
import { registerAtSandbox } from '../support/registration';
import { CliCredentials, printedIds, runCli } from '../support/cli';

/** `trigger` for the kinds of the escriturador and of the sandbox's magic e-mails, over the real api, worker and sandbox. */
describe('the integrators\' CLI: trigger, beyond the payment kinds', function () {
  this.timeout(300_000);
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  let credentials: CliCredentials;

  before(async () => {
    const api = await sharedApi();
    client = new ApiClient(api.url);
    await sharedWorker();
    const integrator = await buildOperationsIntegrator(client);
    ({ token, originatorId } = integrator);
    credentials = { apiUrl: api.url, clientId: integrator.credential.clientId, clientSecret: integrator.credential.secret };
  });

  /** Triggers `kind` and answers the kinds of the events its operation now lists. */
  async function triggered(kind: string): Promise<string[]> {
    const run = await runCli(credentials, ['trigger', kind]);
    expect(run.code, run.stderr).to.equal(0);
    const [operationId] = printedIds(run.stdout).operation;
    return (await listEvents(client, token, `operation_id=${operationId}&limit=100`)).items.map((e) => e.event_type);
  }

  it('says why it cannot cause a kind an integrator cannot, and that an originator registering nowhere cannot have title.registered', async () => {
    const refused = await runCli(credentials, ['trigger', 'title.disputed']);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.include('trigger cannot cause title.disputed: the daily re-check');
    const unregistered = await runCli(credentials, ['trigger', 'title.registered']);
    expect(unregistered.code).to.not.equal(0);
    expect(unregistered.stderr).to.include('registers no acquisitions at an escriturador');
  });

  it('causes operation.contract_error and operation.disbursement_failed through the sandbox\'s magic e-mails', async () => {
    expect(await triggered('operation.contract_error')).to.include('operation.contract_error');
    expect(await triggered('operation.disbursement_failed')).to.include('operation.disbursement_failed');
  });

  it('causes title.registered, title.registration_refused and registration.reconciliation_mismatch for an originator that registers its acquisitions', async () => {
    await registerAtSandbox(originatorId);
    const registered = await triggered('title.registered');
    expect(registered).to.include.members(['title.registered', 'operation.paid']);
    // Newest first: the title was registered before the operation was paid.
    expect(registered.indexOf('title.registered')).to.be.above(registered.indexOf('operation.paid'));
    const refused = await triggered('title.registration_refused');
    expect(refused).to.include.members(['title.registration_refused', 'operation.cancelled']);
    expect(refused).to.not.include('operation.paid');
    const mismatch = await runCli(credentials, ['trigger', 'registration.reconciliation_mismatch']);
    expect(mismatch.code, mismatch.stderr).to.equal(0);
    const [titleId] = printedIds(mismatch.stdout).title;
    const found = (await listEvents(client, token, 'type=registration.reconciliation_mismatch&limit=100')).items.filter((e) => e.data.title_id === titleId);
    expect(found.map((e) => e.data.kind)).to.deep.equal(['holder_changed_there']);
  });
});
