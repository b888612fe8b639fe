/**
 * StoreIndex: the store number of each id over the state's ids (StoreIds), by an open-addressing
 * table checked against them. Against a `Map` over many ids and growth, ids that share a hash slot,
 * an id given a new number, and clearing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreIds } from '../../src/events/store-ids.js';
import { StoreIndex } from '../../src/events/store-index.js';

function indexOf(ids: string[]): StoreIndex {
  const kept = new StoreIds();
  const index = new StoreIndex(kept);
  for (const id of ids) index.add(id, kept.push(id));
  return index;
}

describe('StoreIndex', () => {
  it('gives every id of 120,000 its number across growth, and none for ids it does not hold', () => {
    const ids = Array.from({ length: 120_000 }, (_, n) => `loc_${n.toString(36)}`);
    const kept = new StoreIds();
    const grown = new StoreIndex(kept);
    for (const id of ids) grown.add(id, kept.push(id));
    for (const [n, id] of ids.entries()) expect(grown.get(id)).toBe(n);
    for (let n = 0; n < 1000; n++) expect(grown.get(`other_${n}`)).toBeUndefined();
  });

  it('an id added again takes the new number, as a Map would; clear forgets every id', () => {
    const ids = ['a', 'b', 'a'];
    const index = indexOf(ids);
    expect(index.get('a')).toBe(2);
    expect(index.get('b')).toBe(1);
    index.clear();
    expect(index.get('a')).toBeUndefined();
    expect(index.get('b')).toBeUndefined();
  });

  it('answers as a Map does for any ids (UTF-16 included), repeated ones too', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 6 }), { maxLength: 300 }),
        fc.array(fc.string()),
        (ids, others) => {
          const map = new Map<string, number>();
          for (const [n, id] of ids.entries()) map.set(id, n);
          const index = indexOf(ids);
          for (const id of [...ids, ...others]) expect(index.get(id)).toBe(map.get(id));
        },
      ),
    );
  });
});
