import { expect } from 'chai';
import { cnpj, nfeOf } from '../support/documents';
import { sharedApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildOperationsIntegrator, directBody } from '../support/operations';
import { receivable, receivableWithout } from '../support/simulate';
import { created } from '../support/operation-checks';

const ASSIGNOR = cnpj();
const NFE = { ...nfeOf(ASSIGNOR), nfe_total_value: '10000.00' };

/** Contract "Partial-anticipation remainder": the rest of a partial receivable returns to stock. */
describe('POST /v1/operations/direct: partial anticipation remainder', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildOperationsIntegrator(client));
  });

  /** The remainders an operation created, read through GET /v1/stock/{id}, by external_id. */
  async function remaindersOf(operationId: string) {
    const rows: { id: string }[] = await testDb()('stock_items').where({ source_operation_id: operationId }).select('id');
    const items = await Promise.all(rows.map(async ({ id }) => {
      const res = await client.get(`/v1/stock/${id}`, { token });
      expect(res.status, res.text).to.equal(200);
      return res.body;
    }));
    return new Map(items.map((item) => [item.external_id as string, item]));
  }

  it('returns NFV − requested to stock as an IN_STOCK item named <external_id>_REMAINDER_<8>, inheriting backing and NF-e data, never pre-authorized', async () => {
    const partial = receivable({ external_id: 'PART', backing_type: 'BOLETO', requested_net_future_value: '6000.00', pre_authorized: true, ...NFE });
    const op = await created(client, token, directBody({ cnpj: ASSIGNOR, receivables: [partial] }));
    const remainders = await remaindersOf(op.id);
    expect([...remainders.keys()]).to.deep.equal([`PART_REMAINDER_${op.id.slice(0, 8)}`]);
    expect(remainders.get(`PART_REMAINDER_${op.id.slice(0, 8)}`)).to.include({
      status: 'IN_STOCK', pre_authorized: false, net_future_value: '4000.00', backing_type: 'BOLETO', ...NFE,
      source_operation_id: op.id, operation_id: null, payer_document: partial.payer_document, due_date: partial.due_date,
    });
    expect(op).to.include({ has_partial_anticipations: true });
    expect(op.titles[0]).to.include({ is_partial: true, requested_net_future_value: '6000.00', net_future_value: '10000.00' });
  });

  it('makes one remainder per partial receivable, from a percent too, and none for a receivable anticipated in full', async () => {
    const op = await created(client, token, directBody({
      receivables: [
        receivable({ external_id: 'FULL' }),
        receivableWithout(['requested_net_future_value'], { external_id: 'HALF', net_future_value: '1000.01', requested_net_future_value_percent: 50 }),
        receivable({ external_id: 'MOST', requested_net_future_value: '9999.99' }),
      ],
    }));
    const short = op.id.slice(0, 8);
    const remainders = await remaindersOf(op.id);
    expect([...remainders.keys()].sort()).to.deep.equal([`HALF_REMAINDER_${short}`, `MOST_REMAINDER_${short}`]);
    // 50% of 1000.01 is 500.00 (rounded down), so 500.01 stays in stock
    expect(remainders.get(`HALF_REMAINDER_${short}`)).to.include({ net_future_value: '500.01', backing_type: 'NFE', nfe_number: null, pre_authorized: false });
    expect(remainders.get(`MOST_REMAINDER_${short}`)).to.include({ net_future_value: '0.01' });
    expect(op.titles.map((t: { is_partial: boolean }) => t.is_partial)).to.deep.equal([false, true, true]);
  });

  it('creates no remainder and reports has_partial_anticipations false when everything is anticipated', async () => {
    const op = await created(client, token);
    expect(op.has_partial_anticipations).to.equal(false);
    expect(await remaindersOf(op.id)).to.have.property('size', 0);
  });
});
