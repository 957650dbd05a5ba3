import { expect } from 'chai';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { receivable } from './simulate.support';

describe('POST /v1/operations/direct', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token } = await buildOperationsIntegrator(client));
  });

  it('creates an operation born APPROVED_DIRECT within the auto-approval limit, with the direct-creation shape', async () => {
    const res = await createDirect(client, token);
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ status: 'APPROVED_DIRECT', lifecycle_status: null, created_at: null, needs_backoffice_approval: false, disbursement_method: 'pix_document' });
    expect(res.body.display_number).to.match(/^OP-[0-9A-Z]{8}-[0-9A-Z]{8}$/);
    expect(res.body.titles).to.have.length(1);
    expect(res.body.titles[0]).to.include({ status: 'WAITING_PAYMENT', is_partial: false });
  });

  it('queues an operation above the auto-approval limit for a human', async () => {
    const res = await createDirect(client, token, directBody({ receivables: [receivable({ net_future_value: '60000.00', requested_net_future_value: '60000.00' })] }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ status: 'WAITING_APPROVAL', needs_backoffice_approval: true });
  });
});
