/**
 * StoreIds (src/events/store-ids.ts): the stores' ids by number in one byte buffer, ids past ASCII
 * beside it. The same answers as an array of strings, whatever the ids, across growth and clearing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreIds } from '../../src/events/store-ids.js';

const idsOf = (list: readonly string[]) => {
  const ids = new StoreIds();
  for (const id of list) ids.push(id);
  return ids;
};

describe('StoreIds', () => {
  it('gives 20,000 ids back by number past every growth of its buffers, and numbers them as pushed', () => {
    const list = Array.from({ length: 20_000 }, (_, n) => `loc_${n.toString(36)}_${'x'.repeat(n % 40)}`);
    const ids = new StoreIds();
    const numbers = list.map((id) => ids.push(id));
    expect(numbers.every((number, n) => number === n)).toBe(true);
    expect(ids.length).toBe(20_000);
    expect(list.filter((id, n) => ids.get(n) !== id || !ids.is(n, id))).toEqual([]);
    expect(ids.toArray()).toEqual(list);
  });

  it('tells an id from one a character longer, shorter or different, and past the last number', () => {
    const ids = idsOf(['abc', 'abd', '', 'ab']);
    expect(ids.is(0, 'abc')).toBe(true);
    expect(ids.is(0, 'abcd')).toBe(false);
    expect(ids.is(0, 'ab')).toBe(false);
    expect(ids.is(0, 'abd')).toBe(false);
    expect(ids.is(1, 'abd')).toBe(true);
    expect(ids.is(2, '')).toBe(true);
    expect(ids.is(2, 'a')).toBe(false);
    expect(ids.is(3, 'ab')).toBe(true);
    expect(ids.is(4, 'ab')).toBe(false);
    expect(ids.is(-1, 'abc')).toBe(false);
    expect(ids.get(4)).toBeUndefined();
    expect(ids.get(-1)).toBeUndefined();
    expect(ids.get(0.5)).toBeUndefined();
  });

  it('keeps an id past ASCII as it is, and the ids after it in the buffer where they belong', () => {
    const list = ['a1', 'café', 'b2', '\u{1F600}x', 'ÿ', 'c3', '\u0080'];
    const ids = idsOf(list);
    expect(ids.toArray()).toEqual(list);
    for (const [n, id] of list.entries()) expect(ids.is(n, id)).toBe(true);
    expect(ids.is(1, 'cafe')).toBe(false);
    expect(ids.is(4, '\u00ff')).toBe(true);
    expect(ids.is(4, 'y')).toBe(false);
  });

  it('holds an id longer than its whole buffer, and has no id before the first is pushed', () => {
    const ids = new StoreIds();
    expect(ids.is(0, '')).toBe(false);
    expect(ids.get(0)).toBeUndefined();
    const long = 'L'.repeat(5_000);
    ids.push('a');
    ids.push(long);
    ids.push('b');
    expect(ids.toArray()).toEqual(['a', long, 'b']);
    expect(ids.is(1, long)).toBe(true);
  });

  it('forgets every id when cleared, and numbers from 0 again', () => {
    const ids = idsOf(['a', 'é', 'b']);
    ids.clear();
    expect(ids.length).toBe(0);
    expect(ids.get(0)).toBeUndefined();
    expect(ids.is(1, 'é')).toBe(false);
    expect(ids.push('z')).toBe(0);
    expect(ids.toArray()).toEqual(['z']);
  });

  it('answers as an array does for any ids (UTF-16 and repeats included), cleared or not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\u007f', '\u0080', '\u{1F600}'), maxLength: 5 }), {
          maxLength: 200,
        }),
        fc.nat(),
        fc.array(fc.string({ maxLength: 5 })),
        (list, cut, others) => {
          const at = list.length === 0 ? 0 : cut % list.length;
          const ids = idsOf(list.slice(0, at));
          ids.clear();
          const kept = list.slice(at);
          for (const id of kept) ids.push(id);
          expect(ids.toArray()).toEqual(kept);
          for (let n = 0; n < kept.length; n++)
            for (const other of [...others, ...kept]) expect(ids.is(n, other)).toBe(kept[n] === other);
        },
      ),
    );
  });
});
