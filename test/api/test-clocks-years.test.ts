import { expect } from 'chai';
import { sharedApi, sharedWorker } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator } from '../support/operations';
import { receivable } from '../support/simulate';
import { createClock, readyClock } from '../support/test-clocks';

const DAY_MS = 86_400_000;

/**
 * A clock starts within two years of now, either side: one in 1970 or 9999 would put its events
 * years away from the rest of its tenant's feed (the fuzz run once started one in year 158). Inside
 * the window a clock in the past prices like any other.
 */
describe('test clocks: a starting time within two years of now', function () {
  this.timeout(60_000);
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token } = await buildOperationsIntegrator(client));
  });

  it('refuses a frozen_time more than 730 days away (422 test_clock_time_out_of_range) and creates nothing', async () => {
    for (const frozenTime of ['0158-05-05T12:00:00.000Z', '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.000Z',
      new Date(Date.now() - 731 * DAY_MS).toISOString(), new Date(Date.now() + 731 * DAY_MS).toISOString()]) {
      const refused = await createClock(client, token, { frozen_time: frozenTime });
      expect(refused.status, `${frozenTime}: ${refused.text}`).to.equal(422);
      expect(refused.body.detail).to.include({ code: 'test_clock_time_out_of_range' });
    }
    expect((await client.get('/v1/test-clocks', { token })).body.items).to.deep.equal([]);
  });

  it('starts a clock near either edge, and one 700 days ago prices a simulation at its time', async () => {
    await readyClock(client, token, new Date(Math.floor(Date.now() / 1000) * 1000 + 729 * DAY_MS).toISOString());
    const start = new Date(Math.floor((Date.now() - 700 * DAY_MS) / DAY_MS) * DAY_MS + 12 * 3_600_000);
    const clock = await readyClock(client, token, start.toISOString());
    const due = new Date(start.getTime() + 60 * DAY_MS).toISOString().slice(0, 10);
    const res = await client.post('/v1/simulate', {
      test_clock_id: clock.id,
      receivables: [receivable({ external_id: 'early', due_date: due, net_future_value: '1000.00', requested_net_future_value: '1000.00' })],
    }, { token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ business_date: start.toISOString().slice(0, 10), average_days_in_advance: 60 });
    expect(res.body.opr_net_present_liquid_value).to.match(/^\d+\.\d{2}$/);
  });
});
