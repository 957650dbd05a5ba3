import { expect } from 'chai';
import { ApiClient } from '../support/http';
import { buildUser, loginAs } from '../support/factories';
import { createDirect, directBody, startOperationsTest } from '../support/operations';
import { untilStatus } from '../support/lifecycle';
import { eventually } from '../support/webhooks';
import { receivable } from '../support/simulate';
import { buildAssignor, buildPayable, readPayable } from '../support/payables';

/** TEST_POLICY: 10,000.00 due in 30 days at 2.5% a month is 250.00 of discount, 9,750.00 liquid. */
describe('debt netting', () => {
  let client: ApiClient;
  let token: string;
  before(async () => ({ client, token } = await startOperationsTest()));

  const operationFor = (assignor: { cnpj: string; email: string }, receivables = [receivable()]) =>
    createDirect(client, token, directBody({ cnpj: assignor.cnpj, email: assignor.email, receivables }));

  it('nets the open payables oldest first into other_debt_discounts, lowers the PIX amount and records the operation as their source', async () => {
    const assignor = await buildAssignor(client, token);
    const older = await buildPayable(client, token, assignor.id, { amount_brl: '1000.00' });
    const newer = await buildPayable(client, token, assignor.id, { amount_brl: '500.00' });
    const res = await operationFor(assignor);
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ opr_net_liquid_value: '9750.00', other_debt_discounts: '1500.00', opr_net_present_liquid_value: '8250.00', opr_liquid_value: '8250.00' });
    for (const payable of [older, newer]) {
      const read = await readPayable(client, token, payable.id);
      expect(read).to.include({ status: 'PAID', remaining: '0.00' });
      expect(read.payments).to.have.length(1);
      expect(read.payments[0]).to.include({ source: 'OPERATION_NETTING', operation_id: res.body.id, reversed_at: null });
    }
  });

  it('never nets beyond Σ liquid: the PIX amount is zero and the rest stays owed, oldest first', async () => {
    const assignor = await buildAssignor(client, token);
    const older = await buildPayable(client, token, assignor.id, { amount_brl: '9000.00' });
    const newer = await buildPayable(client, token, assignor.id, { amount_brl: '5000.00' });
    const res = await operationFor(assignor);
    expect(res.body).to.include({ other_debt_discounts: '9750.00', opr_net_present_liquid_value: '0.00' });
    expect(await readPayable(client, token, older.id)).to.include({ status: 'PAID' });
    expect(await readPayable(client, token, newer.id)).to.include({ status: 'PARTIALLY_PAID', remaining: '4250.00' });
  });

  it('shows the same figure in simulation, settling nothing', async () => {
    const assignor = await buildAssignor(client, token);
    const payable = await buildPayable(client, token, assignor.id, { amount_brl: '700.00' });
    const sim = await client.post('/v1/simulate', { assignor_document: assignor.cnpj, receivables: [receivable()] }, { token });
    expect(sim.status, sim.text).to.equal(200);
    expect(sim.body).to.include({ opr_net_liquid_value: '9750.00', other_debt_discounts: '700.00', opr_net_present_liquid_value: '9050.00' });
    expect(await readPayable(client, token, payable.id)).to.include({ status: 'OPEN', remaining: '700.00' });
    const created = await operationFor(assignor);
    expect(created.body).to.include({ other_debt_discounts: sim.body.other_debt_discounts, opr_net_present_liquid_value: sim.body.opr_net_present_liquid_value });
  });

  it('gives the netted debt back when the operation is denied', async () => {
    const assignor = await buildAssignor(client, token);
    const payable = await buildPayable(client, token, assignor.id, { amount_brl: '600.00' });
    const res = await operationFor(assignor, [receivable({ net_future_value: '60000.00', requested_net_future_value: '60000.00' })]);
    expect(res.body).to.include({ status: 'WAITING_APPROVAL', other_debt_discounts: '600.00' });
    await untilStatus(client, token, res.body.id, 'WAITING_APPROVAL');
    const backoffice = await loginAs(client, await buildUser());
    const denied = await client.post(`/v1/backoffice/operations/${res.body.id}/deny`, { reason: 'Concentration' }, { token: backoffice });
    expect(denied.status, denied.text).to.equal(200);
    const read = await eventually(async () => {
      const current = await readPayable(client, token, payable.id);
      expect(current).to.include({ status: 'OPEN', remaining: '600.00', paid_amount_brl: '0.00' });
      return current;
    });
    expect(read.payments[0]).to.include({ source: 'OPERATION_NETTING', operation_id: res.body.id }).and.to.have.property('reversed_at').that.is.a('string');
  });
});
