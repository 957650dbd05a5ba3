import { expect } from 'chai';
import fc from 'fast-check';
import { jsonPage, JsonText } from '../../api/http/handle';

const text = (json: JsonText) => Buffer.concat(json.chunks).toString('utf8');

/** Pages assembled from items serialised apart (the operation list's kept reads) against one JSON.stringify. */
describe('a page of items already serialised', () => {
  it('is byte for byte what JSON.stringify writes for the whole page, whatever the items and fields', () => {
    fc.assert(fc.property(
      fc.array(fc.jsonValue(), { maxLength: 8 }),
      // Named fields, as the routes pass (an index-like key would be put first by any object).
      fc.dictionary(fc.string().filter((key) => key !== 'items' && key !== '__proto__' && !/^(0|[1-9]\d*)$/.test(key)), fc.jsonValue(), { maxKeys: 4 }),
      (items, fields) => {
        const page = jsonPage(items.map((item) => Buffer.from(JSON.stringify(item))), fields);
        const expected = JSON.stringify({ items, ...fields });
        expect(text(page)).to.equal(expected);
        expect(page.length).to.equal(Buffer.byteLength(expected));
      },
    ), { numRuns: 500 });
  });

  it('gives the same JSON to whatever stringifies it again (the idempotency store)', () => {
    const page = jsonPage([Buffer.from('{"a":"é\\n"}')], { total: 1 });
    expect(JSON.stringify({ body: page })).to.equal('{"body":{"items":[{"a":"é\\n"}],"total":1}}');
  });
});
