import { expect } from 'chai';
import { ApiClient } from '../support/http';
import { cnpj, nfeOf } from '../support/documents';
import { createDirect, directBody, startOperationsTest } from '../support/operations';
import { receivable } from '../support/simulate';
import { anotherApi, closeApi, sharedApi, sharedSandbox } from '../support/stack';
import { FlakySefaz } from '../support/sefaz';
import { scrape, valueOf } from '../support/metrics';
import { anticipationBody, requestAnticipation, stockBody, stocked, stockItem } from '../support/stock';

/**
 * At creation every NF-e (model 55) is checked at SEFAZ (here the sandbox's, set through
 * `/v1/sandbox/nfe/{key}`) before anything is written.
 */
describe('creation checks each NF-e at SEFAZ', function () {
  this.timeout(60_000);
  let client: ApiClient;
  let token: string;
  before(async () => ({ client, token } = await startOperationsTest()));
  after(() => client.post('/v1/sandbox/sefaz/outage', { seconds: 0 }, { token }));

  const setNfe = async (key: string, status: string, payerEvent: string | null = null) => {
    const res = await client.post(`/v1/sandbox/nfe/${key}`, { status, payer_event: payerEvent }, { token });
    expect(res.status, res.text).to.equal(200);
  };
  /** A direct body whose second receivable carries a fresh NF-e of the assignor; the first has none. */
  const withNfe = (model?: string) => {
    const assignor = cnpj();
    const nfe = nfeOf(assignor, { model });
    return { key: nfe.nfe_key, body: directBody({ cnpj: assignor, receivables: [receivable(), receivable({ external_id: 'NF-CHECKED', ...nfe })] }) };
  };

  for (const [status, cStat] of [['cancelled', '101'], ['denied', '110'], ['unknown', '217']]) {
    it(`refuses a ${status} NF-e with 422 nfe_not_authorized naming the receivable, the key, cStat ${cStat} and xMotivo; nothing is written`, async () => {
      const { key, body } = withNfe();
      await setNfe(key, status);
      const total = (await client.get('/v1/operations', { token })).body.total;
      const res = await createDirect(client, token, body);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.detail).to.include({ code: 'nfe_not_authorized', external_id: 'NF-CHECKED', nfe_key: key, nfe_status: status, cstat: cStat });
      expect(res.body.detail.loc).to.deep.equal(['body', 'receivables', 1, 'nfe_key']);
      expect(res.body.detail.xmotivo).to.be.a('string').and.not.equal('');
      expect(res.body.detail.message).to.match(new RegExp(`^Receivable NF-CHECKED: NF-e ${key} is ${status} at SEFAZ \\(cStat ${cStat}: `));
      expect((await client.get('/v1/operations', { token })).body.total).to.equal(total);
      expect(valueOf(await scrape((await sharedApi()).metricsUrl), 'receivables_sefaz_answers_total', { service: 'consult', outcome: status })).to.be.at.least(1);
      // Nothing claimed the key: once SEFAZ authorizes it, the same body is created.
      await setNfe(key, 'authorized');
      expect((await createDirect(client, token, body)).status).to.equal(201);
    });
  }

  it('refuses an NF-e its payer disowned (latest conclusive manifestação not_performed, or unknown_operation) with 422 nfe_disowned_by_payer', async () => {
    for (const event of ['not_performed', 'unknown_operation']) {
      const { key, body } = withNfe();
      await setNfe(key, 'authorized', event);
      const res = await createDirect(client, token, body);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.detail).to.include({ code: 'nfe_disowned_by_payer', external_id: 'NF-CHECKED', nfe_key: key, payer_event: event, cstat: '138', xmotivo: 'Documento localizado' });
      expect(res.body.detail.loc).to.deep.equal(['body', 'receivables', 1, 'nfe_key']);
    }
  });

  it('creates when the payer confirmed, or only saw it (ciência is not conclusive)', async () => {
    for (const event of ['confirmed', 'aware']) {
      const { key, body } = withNfe();
      await setNfe(key, 'authorized', event);
      expect((await createDirect(client, token, body)).status, event).to.equal(201);
    }
  });

  it('creates while SEFAZ is down: no answer is no verdict', async () => {
    const { key, body } = withNfe();
    await setNfe(key, 'cancelled');
    await client.post('/v1/sandbox/sefaz/outage', { seconds: 120 }, { token });
    try {
      expect((await createDirect(client, token, body)).status).to.equal(201);
    } finally {
      await client.post('/v1/sandbox/sefaz/outage', { seconds: 0 }, { token });
    }
  });

  it('creates when SEFAZ does not answer within SEFAZ_CREATION_BUDGET_MS', async () => {
    const slow = await FlakySefaz.start((await sharedSandbox()).sefazUrl);
    slow.delayMs = 3_000;
    const api = await anotherApi({ SEFAZ_SANDBOX_URL: slow.url, SEFAZ_CREATION_BUDGET_MS: '300' });
    try {
      const { key, body } = withNfe();
      await setNfe(key, 'cancelled');
      const res = await createDirect(new ApiClient(api.url), token, body);
      expect(res.status, res.text).to.equal(201);
      expect(slow.requests).to.equal(2);
    } finally {
      await closeApi(api);
      await slow.close();
    }
  });

  it('does not ask SEFAZ\'s NF-e services about an NFC-e (model 65)', async () => {
    const { key, body } = withNfe('65');
    await setNfe(key, 'cancelled');
    expect((await createDirect(client, token, body)).status).to.equal(201);
  });

  it('stock anticipation refuses a cancelled item\'s NF-e the same way, loc naming the item, and anticipates it once authorized', async () => {
    const assignor = cnpj();
    const nfe = nfeOf(assignor);
    const [item] = await stocked(client, token, stockBody({ cnpj: assignor, items: [stockItem({ external_id: 'STOCK-NF', ...nfe })] }));
    await setNfe(nfe.nfe_key, 'cancelled');
    const res = await requestAnticipation(client, token, anticipationBody([item.id], '10000.00'));
    expect(res.status, res.text).to.equal(422);
    expect(res.body.detail).to.include({ code: 'nfe_not_authorized', external_id: 'STOCK-NF', nfe_key: nfe.nfe_key, cstat: '101' });
    expect(res.body.detail.loc).to.deep.equal(['body', 'stock_item_ids', 0, 'nfe_key']);
    expect((await client.get(`/v1/stock/${item.id}`, { token })).body.status).to.equal('IN_STOCK');
    await setNfe(nfe.nfe_key, 'authorized');
    expect((await requestAnticipation(client, token, anticipationBody([item.id], '10000.00'))).status).to.equal(201);
  });
});
