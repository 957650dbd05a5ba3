import { expect } from 'chai';
import fc from 'fast-check';
import { ByteLru } from '../../api/cache/byte-lru';

const kept = (lru: ByteLru<string>, keys: readonly string[]) => keys.filter((key) => lru.get(key) !== undefined);

describe('a least-recently-used cache bounded by bytes', () => {
  it('drops the least recently read first once its bytes pass the capacity', () => {
    const lru = new ByteLru<string>(10, (value) => value.length);
    lru.set('a', 'xxx');
    lru.set('b', 'xxx');
    lru.set('c', 'xxx');
    expect(lru.get('a')).to.equal('xxx');
    lru.set('d', 'xxx');
    expect(lru.get('b')).to.equal(undefined);
    expect(kept(lru, ['a', 'c', 'd'])).to.deep.equal(['a', 'c', 'd']);
  });

  it('keeps nothing heavier than its capacity, and nothing at all at capacity 0', () => {
    const lru = new ByteLru<string>(4, (value) => value.length);
    lru.set('small', 'xx');
    lru.set('large', 'xxxxx');
    expect(kept(lru, ['small', 'large'])).to.deep.equal(['small']);
    const none = new ByteLru<string>(0, (value) => value.length);
    none.set('a', 'x');
    expect(none.get('a')).to.equal(undefined);
  });

  it('agrees with a list in order of use, whatever the reads and writes', () => {
    const capacity = 12;
    fc.assert(fc.property(fc.array(fc.tuple(fc.boolean(), fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 8 })), { maxLength: 60 }), (steps) => {
      const lru = new ByteLru<string>(capacity, (value) => value.length);
      // The model: entries from least to most recently used, dropped from the front past the capacity.
      let model: [string, string][] = [];
      for (const [write, key, size] of steps) {
        const found = model.find(([k]) => k === key);
        if (write) {
          lru.set(key, 'x'.repeat(size));
          if (size > capacity) continue;
          model = [...model.filter(([k]) => k !== key), [key, 'x'.repeat(size)]];
          while (model.reduce((sum, [, value]) => sum + value.length, 0) > capacity) model.shift();
        } else {
          expect(lru.get(key)).to.equal(found?.[1]);
          if (found) model = [...model.filter(([k]) => k !== key), found];
        }
      }
    }), { numRuns: 300 });
  });
});
