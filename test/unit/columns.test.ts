import { expect } from 'chai';
import { fromColumns, toColumns } from '../../db/repositories/columns';

describe('rows at the repository boundary', () => {
  it('renames columns to camelCase fields and leaves a jsonb value\'s own keys alone', () => {
    const row = { id: 'a', opr_net_future_value: '10.00', cet_monthly_pct: null, review_reason: { code: 'x', external_ids: ['e1'] } };
    expect(fromColumns(row)).to.deep.equal({ id: 'a', oprNetFutureValue: '10.00', cetMonthlyPct: null, reviewReason: { code: 'x', external_ids: ['e1'] } });
  });

  it('writes fields back under their column names, so a row read and written again is unchanged', () => {
    const columns = { id: 'b', workflow_type: 'operationWorkflow', search_attributes: '{"originatorId":"o"}', approved_at: null };
    expect(toColumns(fromColumns<object>(columns))).to.deep.equal(columns);
  });
});
