import { expect } from 'chai';
import { ApiClient } from '../support/http';
import { createDirect, startOperationsTestWithBackoffice } from '../support/operations';
import { untilStatus } from '../support/lifecycle';
import { listEvents } from '../support/events';
import { setSandboxNfe } from '../support/sefaz';
import { advanceClock, untilReady } from '../support/test-clocks';
import { buildConfirmingProduct, noPix, signedAwaitingPayer } from '../support/payer-confirmation';
import { AWAITING_PAYER_ACTION } from '../../domain/stuck-operations';
import { recordHistory } from '../support/histories';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A product with `payer_confirmation: required`: the PIX waits for each payer's confirmation
 * (210200, set through the sandbox's `/v1/sandbox/nfe/{key}`), asked again on the operation's test
 * clock, and the operation is cancelled when the product's deadline passes without it.
 */
describe('payer_confirmation required: the PIX waits for the payer\'s word', function () {
  this.timeout(180_000);
  let client: ApiClient;
  let token: string;
  let staffToken: string;
  let productId: string;
  const DEADLINE_DAYS = 3;

  before(async () => {
    let originatorId: string;
    ({ client, token, originatorId, backoffice: staffToken } = await startOperationsTestWithBackoffice());
    productId = await buildConfirmingProduct(originatorId, DEADLINE_DAYS);
  });

  const advanceTo = async (clockId: string, frozenTime: string) => {
    const res = await advanceClock(client, token, clockId, frozenTime);
    expect(res.status, res.text).to.equal(200);
    await untilReady(client, token, clockId);
  };
  const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

  it('reads the policy on the product', async () => {
    const { body } = await client.get('/v1/products?limit=100', { token });
    expect(body.items.find((p: { product_id: string }) => p.product_id === productId)).to.include({ payer_confirmation: 'required', payer_confirmation_deadline_days: DEADLINE_DAYS });
  });

  it('waits in SIGNED while the payer is silent, shown in the stuck view with its action, and pays at the next check once the payer confirmed', async () => {
    const { id, key, clock, check } = await signedAwaitingPayer(client, token, productId);
    const stuck = await client.get('/v1/backoffice/stuck-operations?limit=200', { token: staffToken });
    expect(stuck.status, stuck.text).to.equal(200);
    const item = stuck.body.items.find((op: { id: string }) => op.id === id);
    expect(item).to.include({ lifecycle_status: 'SIGNED', action: AWAITING_PAYER_ACTION, threshold_seconds: 0 });
    expect(item.nfe_check).to.include({ nfe_key: key, reason: 'payer_confirmation_missing', cstat: check.cstat, xmotivo: check.xmotivo });

    await setSandboxNfe(client, token, key, 'authorized', 'aware');
    // Ciência is not a confirmation: the check due within the hour still waits.
    await advanceTo(clock.id, later(clock.frozen_time, HOUR_MS));
    const aware = (await client.get(`/v1/operations/${id}`, { token })).body;
    expect(aware.lifecycle_status).to.equal('SIGNED');
    expect(aware.titles[0].nfe_check).to.include({ status: 'pending', reason: 'payer_confirmation_missing', cstat: '138' });
    await noPix(id);

    await setSandboxNfe(client, token, key, 'authorized', 'confirmed');
    await advanceTo(clock.id, later(clock.frozen_time, 7 * HOUR_MS));
    const paid = await untilStatus(client, token, id, 'PAID', 90_000);
    expect(paid.titles[0].nfe_check).to.include({ status: 'passed', reason: null, payer_event: 'confirmed' });
    expect(paid.cancellation_reason).to.equal(null);
    await recordHistory('payer-confirmation-paid', id);
    const after = await client.get('/v1/backoffice/stuck-operations?limit=200', { token: staffToken });
    expect(after.body.items.map((op: { id: string }) => op.id)).to.not.include(id);
  });

  it('cancels with payer_confirmation_missing, no PIX, once the deadline passes on the clock without a confirmation; the claim on the key is released', async () => {
    const { id, clock, body } = await signedAwaitingPayer(client, token, productId);
    await advanceTo(clock.id, later(clock.frozen_time, (DEADLINE_DAYS + 1) * DAY_MS));
    const read = await untilStatus(client, token, id, 'CANCELLED', 60_000);
    expect(read.cancellation_reason).to.equal('payer_confirmation_missing');
    expect(read.titles[0].nfe_check).to.include({ status: 'pending', reason: 'payer_confirmation_missing' });
    await noPix(id);
    const { items } = await listEvents(client, token, `object_id=${id}&type=operation.cancelled`);
    expect(items).to.have.length(1);
    expect(items[0].data).to.include({ cancellation_reason: 'payer_confirmation_missing', actor: 'system:backing-check' });
    expect((await createDirect(client, token, body)).status).to.equal(201);
    await recordHistory('payer-confirmation-missing', id);
  });
});
