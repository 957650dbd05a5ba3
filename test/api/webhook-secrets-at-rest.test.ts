import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { sharedApi, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator } from '../support/factories';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { newWebhookSecret } from '../../domain/webhook-signature';
import { up as sealExistingSecrets } from '../../db/migrations/20261123130200_webhook_secrets_sealed';

/** Issue #13: webhook HMAC secrets are stored sealed with the key ring. */
describe('webhook secrets at rest', () => {
  let client: ApiClient;
  let token: string;
  let originatorId: string;
  const ring = () => new CipherRing(testConfig().payloadKeys);
  const row = (id: string) => testDb()('webhook_subscriptions').where({ id }).first('secret', 'previous_secret');

  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token, originatorId } = await buildIntegrator(client));
  });

  it('the secret column holds ciphertext under the newest key, which opens to the secret shown at registration', async () => {
    const res = await client.post('/v1/webhooks', { url: 'https://public.test/sealed', events: ['operation.paid'] }, { token });
    expect(res.status, res.text).to.equal(201);
    const stored = await row(res.body.id);
    expect(stored.secret).to.match(new RegExp(`^enc:v1:${testConfig().payloadKeys[0].id}:`));
    expect(stored.secret).not.to.include(res.body.hmac_secret.slice('whsec_'.length, 20));
    expect(ring().openText(stored.secret)).to.equal(res.body.hmac_secret);
  });

  it('rotate-secret seals the new secret and re-seals the outgoing one', async () => {
    const registered = await client.post('/v1/webhooks', { url: 'https://public.test/rotating', events: ['operation.paid'] }, { token });
    const rotated = await client.post(`/v1/webhooks/${registered.body.id}/rotate-secret`, {}, { token });
    expect(rotated.status, rotated.text).to.equal(200);
    const stored = await row(registered.body.id);
    for (const value of [stored.secret, stored.previous_secret]) expect(value).to.match(/^enc:v1:/);
    expect(ring().openText(stored.secret)).to.equal(rotated.body.hmac_secret);
    expect(ring().openText(stored.previous_secret)).to.equal(registered.body.hmac_secret);
  });

  it('the migration seals rows written in clear before it, and leaves sealed rows alone', async () => {
    const plain = newWebhookSecret();
    const id = uuidv7();
    await testDb()('webhook_subscriptions').insert({ id, originator_id: originatorId, url: 'https://public.test/legacy', event_types: ['operation.paid'], secret: plain, previous_secret: plain });
    const sealedBefore = await testDb()('webhook_subscriptions').whereNot({ id }).select('id', 'secret');
    await sealExistingSecrets(testDb());
    const stored = await row(id);
    expect(stored.secret).to.match(/^enc:v1:/);
    expect(ring().openText(stored.secret)).to.equal(plain);
    expect(ring().openText(stored.previous_secret)).to.equal(plain);
    const sealedAfter = await testDb()('webhook_subscriptions').whereNot({ id }).select('id', 'secret');
    expect(sealedAfter).to.have.deep.members(sealedBefore);
  });
});
