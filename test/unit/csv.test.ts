import { expect } from 'chai';
import { csvField, csvLine } from '../../api/http/csv';

describe('CSV fields', () => {
  it('defuses a field a spreadsheet would run as a formula, but leaves a negative amount a number', () => {
    expect(csvField('=HYPERLINK("x")')).to.equal('"\'=HYPERLINK(""x"")"');
    expect(csvField('-2+3')).to.equal("'-2+3");
    expect(csvField('@SUM(A1)')).to.equal("'@SUM(A1)");
    expect(csvField('-1000.00')).to.equal('-1000.00');
    expect(csvField('-1000,00', { delimiter: ';', quoteAll: true })).to.equal('"-1000,00"');
  });

  it('quotes what needs it, or every field, around the style\'s delimiter', () => {
    expect(csvLine(['a,b', 'c', null])).to.equal('"a,b",c,');
    expect(csvLine(['a,b', 'c;d'], { delimiter: ';', quoteAll: false })).to.equal('a,b;"c;d"');
    expect(csvLine(['x', ''], { delimiter: ';', quoteAll: true })).to.equal('"x";""');
  });
});
