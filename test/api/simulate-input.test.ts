import { expect } from 'chai';
import { sharedApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildPricingIntegrator, receivable, receivableWithout } from '../support/simulate';

describe('POST /v1/simulate input', () => {
  let client: ApiClient;
  let token: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    ({ token } = await buildPricingIntegrator(client));
  });

  const simulate = (body: Record<string, unknown>) => client.post('/v1/simulate', body, { token });
  const errorsOf = (body: { detail: { code: string; errors: unknown[] } }) => {
    expect(body.detail.code).to.equal('validation_error');
    return body.detail.errors;
  };

  it('reports every malformed amount of the request in one validation_error, each at its own loc with a clear msg', async () => {
    const res = await simulate({
      receivables: [
        receivable({ net_future_value: '10.001' }),
        receivable({ requested_net_future_value: -5 }),
        receivable({ net_future_value: '1e4' }),
        receivable({ net_future_value: 'NaN' }),
        receivable({ net_future_value: '10,00' }),
      ],
      fees: { fixed_discount_brl: '1.5.0' },
    });
    expect(res.status).to.equal(422);
    const at = (i: number, field: string) => ['body', 'receivables', i, field];
    expect(errorsOf(res.body)).to.deep.equal([
      { loc: ['body', 'fees', 'fixed_discount_brl'], msg: 'Input should be a decimal number with a dot as separator, e.g. "1500.00"', type: 'decimal_parsing', input: '1.5.0' },
      { loc: at(0, 'net_future_value'), msg: 'Amount should have no more than 2 decimal places', type: 'decimal_max_places', input: '10.001', ctx: { decimal_places: 2 } },
      { loc: at(1, 'requested_net_future_value'), msg: 'Input should be greater than or equal to 0', type: 'greater_than_equal', input: -5, ctx: { ge: 0 } },
      { loc: at(2, 'net_future_value'), msg: 'Exponent notation is not accepted; write the plain number, e.g. "1000.00"', type: 'decimal_parsing', input: '1e4' },
      { loc: at(3, 'net_future_value'), msg: 'Input should be a finite number', type: 'finite_number', input: 'NaN' },
      { loc: at(4, 'net_future_value'), msg: 'Input should be a decimal number with a dot as separator, e.g. "1500.00"', type: 'decimal_parsing', input: '10,00' },
    ]);
  });

  it('refuses own pricing under a net target, and a non-numeric JSON type at the schema', async () => {
    const target = await simulate({ receivables: [receivable(), receivable({ discount_pct: 1 })], fees: { total_liquid_value_brl: '19000.00' } });
    expect(errorsOf(target.body)).to.deep.equal([{
      loc: ['body', 'fees', 'total_liquid_value_brl'], msg: 'total_liquid_value_brl prices every receivable; receivables[1] carries its own pricing',
      type: 'value_error', input: '19000.00',
    }]);
    const wrongType = await simulate({ receivables: [receivable({ net_future_value: true })] });
    expect(wrongType.status).to.equal(422);
    expect(errorsOf(wrongType.body).map((e) => (e as { loc: unknown[] }).loc)).to.deep.include(['body', 'receivables', 0, 'net_future_value']);
  });

  it('names the deprecated field in loc when a required value is missing', async () => {
    const res = await simulate({ receivables: [receivableWithout(['net_future_value', 'requested_net_future_value'])] });
    expect(res.status).to.equal(422);
    expect(errorsOf(res.body)).to.deep.equal([
      { loc: ['body', 'receivables', 0, 'net_face_value'], msg: 'Field required: send net_future_value or net_face_value', type: 'missing' },
      {
        loc: ['body', 'receivables', 0, 'requested_advance_value'], type: 'missing',
        msg: 'Field required: send requested_net_future_value, requested_advance_value or requested_net_future_value_percent',
      },
    ]);
  });

  it('refuses a payer document with a wrong check digit, and accepts punctuation and the alphanumeric CNPJ', async () => {
    const wrong = await simulate({ receivables: [receivable({ payer_document: '529.982.247-24' })] });
    expect(wrong.status).to.equal(422);
    expect(errorsOf(wrong.body)).to.deep.equal([
      { loc: ['body', 'receivables', 0, 'payer_document'], msg: 'Invalid CPF: check digits do not match', type: 'value_error', input: '529.982.247-24' },
    ]);
    const right = await simulate({ receivables: [receivable({ payer_document: '529.982.247-25' }), receivable({ payer_document: '12.ABC.345/01DE-35' })] });
    expect(right.status, right.text).to.equal(200);
    expect(right.body.receivables.map((r: { payer_document: string }) => r.payer_document)).to.deep.equal(['52998224725', '12ABC34501DE35']);
  });

  it('refuses an assignor_document with a wrong check digit', async () => {
    const res = await simulate({ assignor_document: '11.222.333/0001-82', receivables: [receivable()] });
    expect(res.status).to.equal(422);
    expect(errorsOf(res.body)).to.deep.equal([
      { loc: ['body', 'assignor_document'], msg: 'Invalid CNPJ: check digits do not match', type: 'value_error', input: '11.222.333/0001-82' },
    ]);
  });

  it('refuses a repeated external_id and liquid_value_brl next to rate fields', async () => {
    const res = await simulate({ receivables: [receivable({ external_id: 'X' }), receivable({ external_id: 'X', liquid_value_brl: '9000.00', discount_pct: 1 })] });
    expect(res.status).to.equal(422);
    expect(errorsOf(res.body)).to.deep.equal([
      { loc: ['body', 'receivables', 1, 'external_id'], msg: 'external_id must be unique within the operation; receivables[0] already uses it', type: 'value_error', input: 'X' },
      { loc: ['body', 'receivables', 1, 'liquid_value_brl'], msg: 'liquid_value_brl is mutually exclusive with discount_pct', type: 'value_error', input: '9000.00' },
    ]);
  });

  it('refuses an empty list and a missing list at the schema', async () => {
    for (const body of [{ receivables: [] }, {}]) {
      const res = await simulate(body);
      expect(res.status).to.equal(422);
      expect(errorsOf(res.body)[0]).to.include({ type: body.receivables ? 'too_short' : 'missing' });
    }
  });

  it('writes nothing: every table of the tenant keeps its row count', async () => {
    const { token: own, originatorId } = await buildPricingIntegrator(client);
    const tables: string[] = (await testDb().raw(
      "select table_name from information_schema.columns where table_schema = 'public' and column_name = 'originator_id' order by table_name",
    )).rows.map((r: { table_name: string }) => r.table_name);
    const counts = async () => Promise.all(tables.map(async (t) => Number((await testDb()(t).where({ originator_id: originatorId }).count({ n: '*' }))[0].n)));
    const before = await counts();
    const res = await client.post('/v1/simulate', {
      assignor_document: '529.982.247-25',
      receivables: [receivable(), receivableWithout(['requested_net_future_value'], { requested_net_future_value_percent: 40 })],
      fees: { floating_days: 2 },
    }, { token: own });
    expect(res.status, res.text).to.equal(200);
    expect(tables).to.include.members(['assignors', 'payers', 'events', 'policies', 'products']);
    expect(await counts()).to.deep.equal(before);
  });
});
