import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { anotherApi } from '../support/stack';
import { productionEnv } from '../support/config';
import { ApiClient } from '../support/http';
import { buildCredential, tokenFor } from '../support/factories';
import { payerPayment, simulatePayerPayment } from '../support/titles';

describe('simulated payer payments in production', () => {
  it('do not exist there: 404 not_found, as for any undocumented route', async () => {
    const prod = new ApiClient((await anotherApi(productionEnv())).url);
    const token = await tokenFor(prod, await buildCredential({ env: 'prod' }));
    const res = await simulatePayerPayment(prod, token, uuidv7(), payerPayment());
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ detail: 'not_found' });
    const document = (await prod.get('/v1/openapi.json')).body;
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/v1/sandbox/'))).to.deep.equal([]);
    expect(document.paths).to.have.property('/v1/backoffice/titles/{id}/payer-payments');
  });

  it('are documented outside production', async () => {
    const document = (await new ApiClient((await anotherApi({ SERVICE_ENV: 'sandbox' })).url).get('/v1/openapi.json')).body;
    expect(document.paths).to.have.property('/v1/sandbox/titles/{id}/payer-payments');
  });
});
