import { expect } from 'chai';
import fc from 'fast-check';
import { ByteLru } from '../../api/cache/byte-lru';

const kept = (lru: ByteLru<string>, keys: readonly string[]) => keys.filter((key) => lru.get('s', key) !== undefined);

describe('a least-recently-used cache bounded by bytes', () => {
  it('drops the least recently read first once its bytes pass the capacity', () => {
    const lru = new ByteLru<string>(10, (value) => value.length);
    lru.set('s', 'a', 'xxx');
    lru.set('s', 'b', 'xxx');
    lru.set('s', 'c', 'xxx');
    expect(lru.get('s', 'a')).to.equal('xxx');
    lru.set('s', 'd', 'xxx');
    expect(lru.get('s', 'b')).to.equal(undefined);
    expect(kept(lru, ['a', 'c', 'd'])).to.deep.equal(['a', 'c', 'd']);
  });

  it('keeps nothing heavier than its capacity, and nothing at all at capacity 0', () => {
    const lru = new ByteLru<string>(4, (value) => value.length);
    lru.set('s', 'small', 'xx');
    lru.set('s', 'large', 'xxxxx');
    expect(kept(lru, ['small', 'large'])).to.deep.equal(['small']);
    const none = new ByteLru<string>(0, (value) => value.length);
    none.set('s', 'a', 'x');
    expect(none.get('s', 'a')).to.equal(undefined);
  });

  it('finds a value only in its own scope', () => {
    const lru = new ByteLru<string>(10, (value) => value.length);
    lru.set('one', 'a', 'x');
    expect(lru.get('two', 'a')).to.equal(undefined);
    expect(lru.get('one', 'a')).to.equal('x');
  });

  it('agrees with a list in order of use, whatever the scopes, reads and writes', () => {
    const capacity = 12;
    const step = fc.tuple(fc.boolean(), fc.constantFrom('s', 't'), fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 14 }));
    fc.assert(fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
      const lru = new ByteLru<string>(capacity, (value) => value.length);
      // The model: entries from least to most recently used, dropped from the front past the capacity.
      let model: { name: string; value: string }[] = [];
      for (const [write, scope, key, size] of steps) {
        const name = `${scope}/${key}`;
        const found = model.find((entry) => entry.name === name);
        if (write) {
          const value = 'x'.repeat(size);
          lru.set(scope, key, value);
          if (size > capacity) continue;
          model = [...model.filter((entry) => entry.name !== name), { name, value }];
          while (model.reduce((sum, entry) => sum + entry.value.length, 0) > capacity) model.shift();
        } else {
          expect(lru.get(scope, key), name).to.equal(found?.value);
          if (found) model = [...model.filter((entry) => entry.name !== name), found];
        }
      }
    }), { numRuns: 500 });
  });
});
