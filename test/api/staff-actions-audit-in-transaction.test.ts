import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { sharedApi, sharedWorker, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { backofficePayerPayment, payerPayment } from '../support/titles';
import { collectOnPix } from '../support/pix-collection';
import { readyClock, untilReady } from '../support/test-clocks';
import { eventually } from '../support/webhooks';

/**
 * A payer payment entered by staff, a staff sweep, a staff test-clock advance and an admin's checkpoint each commit with
 * their audit row or not at all: with the row's insert made to fail (a trigger), the action takes
 * no effect either; once the insert is allowed, the action and exactly one row appear together.
 */
describe('staff actions applied by workflows: the audit row in the action\'s transaction', function () {
  this.timeout(180_000);
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  let staff: { id: string; token: string };

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    await sharedWorker();
    ({ token, originatorId } = await buildOperationsIntegrator(client));
    const user = await buildUser();
    staff = { id: user.id, token: await loginAs(client, user) };
  });

  /** Makes the insert of `action`'s row fail until the returned function is called. */
  async function refuseRowsOf(action: string): Promise<() => Promise<void>> {
    const name = `refuse_${action.replace('.', '_')}`;
    await testDb().raw(`create function ${name}() returns trigger language plpgsql as $$
      begin if new.action = '${action}' then raise exception 'audit insert refused by the test'; end if; return new; end $$`);
    await testDb().raw(`create trigger ${name} before insert on audit_events for each row execute function ${name}()`);
    return async () => {
      await testDb().raw(`drop trigger if exists ${name} on audit_events`);
      await testDb().raw(`drop function if exists ${name}()`);
    };
  }

  const rowsOf = (action: string, targetId: string) => testDb()('audit_events').where({ action, target_id: targetId }).orderBy('seq');
  const paymentsOf = (titleId: string) => testDb()('title_payments').where({ title_id: titleId });

  async function paidTitle(): Promise<string> {
    const res = await createDirect(client, token, directBody({ email: `audited+${randomUUID()}@example.com`, receivables: [receivable({ net_future_value: '5000.00', requested_net_future_value: '5000.00' })] }));
    expect(res.status, res.text).to.equal(201);
    await untilPaid(client, token, res.body.id);
    return res.body.titles[0].id as string;
  }

  it('a payer payment staff enter whose row cannot be written is not applied; written, the payment and its row are there with the answer', async () => {
    const titleId = await paidTitle();
    const sent = payerPayment({ paid_amount_brl: '1200.00' });
    const allow = await refuseRowsOf('title.payer_payment');
    try {
      const refused = await backofficePayerPayment(client, staff.token, titleId, sent);
      expect(refused.status, refused.text).to.be.at.least(500);
      expect(await paymentsOf(titleId)).to.deep.equal([]);
      expect(await rowsOf('title.payer_payment', titleId)).to.deep.equal([]);
    } finally {
      await allow();
    }
    // The caller's retry with the same external_id applies it now, with its row, both read at the answer.
    const applied = await backofficePayerPayment(client, staff.token, titleId, sent);
    expect(applied.status, applied.text).to.equal(201);
    const [payment] = await paymentsOf(titleId);
    expect((await rowsOf('title.payer_payment', titleId)).map((r) => [r.actor.id, r.after, r.request])).to.deep.equal([[staff.id, {
      payment_id: payment.id, external_id: sent.external_id, paid_amount_brl: '1200.00', title_status: 'PARTIALLY_PAID', remaining: '3800.00',
    }, sent]]);
    // A replay applies nothing, so it adds no row.
    expect((await backofficePayerPayment(client, staff.token, titleId, sent)).body.idempotent_replay).to.equal(true);
    expect(await rowsOf('title.payer_payment', titleId)).to.have.length(1);
  });

  it('a sweep by staff whose rows cannot be written applies no PIX; written, each PIX it applied has its row, with the payment', async () => {
    await collectOnPix(originatorId);
    const titleId = await paidTitle();
    await eventually(async () => expect((await testDb()('pix_charges').where({ title_id: titleId }).first())?.txid, 'no charge yet').to.be.a('string'));
    const pix = await client.post(`/v1/sandbox/titles/${titleId}/pix`, { webhook: 'lost' }, { token });
    expect(pix.status, pix.text).to.equal(202);
    const allow = await refuseRowsOf('collection.sweep');
    try {
      const refused = await client.post('/v1/backoffice/collection/sweep', undefined, { token: staff.token });
      expect(refused.status, refused.text).to.be.at.least(500);
      expect(await paymentsOf(titleId)).to.deep.equal([]);
      expect(await rowsOf('collection.sweep', titleId)).to.deep.equal([]);
    } finally {
      await allow();
    }
    const swept = await client.post('/v1/backoffice/collection/sweep', undefined, { token: staff.token });
    expect(swept.status, swept.text).to.equal(200);
    expect(swept.body.applied.map((p: { end_to_end_id: string }) => p.end_to_end_id)).to.include(pix.body.end_to_end_id);
    const [payment] = await paymentsOf(titleId);
    expect((await rowsOf('collection.sweep', titleId)).map((r) => [r.actor.id, r.after])).to.deep.equal([[staff.id, {
      payment_id: payment.id, external_id: pix.body.end_to_end_id, paid_amount_brl: '5000.00', title_status: 'PAID', remaining: '0.00',
    }]]);
  });

  it('a clock advance by staff waits while its row cannot be written, the clock unmoved; then the move and its row come together', async () => {
    const start = new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000).toISOString();
    const clock = await readyClock(client, token, start);
    const to = new Date(Date.parse(start) + 3 * 86_400_000).toISOString();
    const clockRow = () => testDb()('test_clocks').where({ id: clock.id }).first('frozen_time');
    const allow = await refuseRowsOf('test_clock.advance');
    let advancing: Promise<{ status: number; text: string; body: { frozen_time: string } }>;
    try {
      advancing = client.post(`/v1/backoffice/test-clocks/${clock.id}/advance`, { frozen_time: to }, { token: staff.token });
      // The clock's workflow accepted the advance; its write retries against the refused insert.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect((await clockRow()).frozen_time.toISOString()).to.equal(start);
      expect(await rowsOf('test_clock.advance', clock.id)).to.deep.equal([]);
    } finally {
      await allow();
    }
    const res = await advancing;
    expect(res.status, res.text).to.equal(200);
    expect(res.body.frozen_time).to.equal(to);
    expect((await rowsOf('test_clock.advance', clock.id)).map((r) => [r.actor.id, r.before, r.after, r.request])).to.deep.equal([[staff.id,
      { frozen_time: start }, { frozen_time: to }, { frozen_time: to }]]);
    await untilReady(client, token, clock.id);
  });

  it('a checkpoint an admin asks for whose row cannot be written is not stored; written, the checkpoint and its row are there with the answer', async () => {
    const admin = await loginAs(client, await buildUser({ roles: ['admin'] }));
    const stored = async () => (await testDb()('audit_checkpoints').count({ n: '*' }).first())!.n;
    const before = await stored();
    const allow = await refuseRowsOf('audit.checkpoint');
    try {
      const refused = await client.post('/v1/backoffice/audit/checkpoints', {}, { token: admin });
      expect(refused.status, refused.text).to.be.at.least(500);
      expect(await stored()).to.equal(before);
      expect(await testDb()('audit_events').where({ action: 'audit.checkpoint' })).to.deep.equal([]);
    } finally {
      await allow();
    }
    const made = await client.post('/v1/backoffice/audit/checkpoints', {}, { token: admin });
    expect(made.status, made.text).to.equal(201);
    expect((await rowsOf('audit.checkpoint', made.body.id)).map(({ after }) => [after.seq, after.hash, after.kid])).to.deep.equal([[made.body.seq, made.body.hash, made.body.kid]]);
  });
});
