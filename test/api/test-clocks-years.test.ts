import { expect } from 'chai';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { receivable } from '../support/simulate';
import { readyClock } from '../support/test-clocks';

/**
 * Found by the fuzz run (issue #24): a clock may start at any time the document allows, and one in
 * year 158 priced a simulation as NaN with a business date of "158-06-14" (Intl writes a short year
 * with fewer digits, which no date parser of the pricing then read).
 */
describe('test clocks: a clock in an early year', function () {
  this.timeout(60_000);

  it('prices a simulation at its time like any other: a four-digit business date and numbers', async () => {
    const client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    const { token } = await buildOperationsIntegrator(client);
    const clock = await readyClock(client, token, '0158-05-05T12:00:00.000Z');
    const res = await client.post('/v1/simulate', {
      test_clock_id: clock.id,
      receivables: [receivable({ external_id: 'early', due_date: '0158-07-04', net_future_value: '1000.00', requested_net_future_value: '1000.00' })],
    }, { token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ business_date: '0158-05-05', average_days_in_advance: 60 });
    expect(res.body.opr_net_present_liquid_value).to.match(/^\d+\.\d{2}$/);
  });
});
