/**
 * Sets, counts and values of stores by store number (src/events/store-set.ts): the same answers as
 * a `Set` and a `Map`, whatever the order stores are numbered in, added, removed and counted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreIds } from '../../src/events/store-ids.js';
import { CountsPerStore, PerStore, StoreSet, type StoreNumbers } from '../../src/events/store-set.js';

/** The state's numbering: stores in the order met. */
class Numbering implements StoreNumbers {
  readonly stores = new StoreIds();
  readonly #index = new Map<string, number>();
  storeIndex(id: string): number | undefined {
    return this.#index.get(id);
  }
  meet(id: string): void {
    if (this.#index.has(id)) return;
    this.#index.set(id, this.stores.push(id));
  }
}

const numbered = (count: number) => {
  const numbers = new Numbering();
  for (let i = 0; i < count; i++) numbers.meet(`s${i}`);
  return numbers;
};

describe('StoreSet', () => {
  it('holds numbered stores by bit across word edges (bits 0, 31, 32, 63, 64) and lists them in number order', () => {
    const numbers = numbered(70);
    const set = new StoreSet(numbers, ['s64', 's31', 's0', 's63', 's32']);
    expect([...set]).toEqual(['s0', 's31', 's32', 's63', 's64']);
    for (const id of ['s1', 's30', 's33', 's62', 's65', 's69']) expect(set.has(id)).toBe(false);
    expect(set.delete('s31')).toBe(true);
    expect(set.delete('s31')).toBe(false);
    expect(set.has('s31')).toBe(false);
    expect(set.has('s32')).toBe(true);
    expect([...set].length).toBe(4);
  });

  it('holds a store numbered far past the set’s last word, and deleting an unnumbered store leaves store 0 alone', () => {
    const numbers = numbered(5001);
    const set = new StoreSet(numbers).add('s0').add('x').add('s5000');
    expect(set.has('s5000')).toBe(true);
    expect(set.has('s4999')).toBe(false);
    expect(set.delete('x')).toBe(true);
    expect(set.delete('y')).toBe(false);
    expect([...set]).toEqual(['s0', 's5000']);
  });

  it('keeps a store not numbered yet by id, listed after the numbered ones, found once it is numbered', () => {
    const numbers = numbered(2);
    const set = new StoreSet(numbers).add('new-b').add('s1').add('new-a');
    expect([...set]).toEqual(['s1', 'new-b', 'new-a']);
    numbers.meet('new-a');
    expect(set.has('new-a')).toBe(true);
    set.add('new-a');
    expect([...set]).toEqual(['s1', 'new-b', 'new-a']);
    expect(set.delete('new-a')).toBe(true);
    expect(set.has('new-a')).toBe(false);
    expect([...set]).toEqual(['s1', 'new-b']);
  });

  it('visits a store added during iteration when its number is still ahead', () => {
    const numbers = numbered(40);
    const set = new StoreSet(numbers, ['s1', 's5']);
    const seen: string[] = [];
    for (const id of set) {
      seen.push(id);
      if (id === 's1') set.add('s39').add('s0');
    }
    expect(seen).toEqual(['s1', 's5', 's39']);
    expect([...set].length).toBe(4);
  });

  it('clear() empties it, numbered and unnumbered', () => {
    const set = new StoreSet(numbered(3), ['s2', 'x']);
    set.clear();
    expect([...set].length).toBe(0);
    expect([...set]).toEqual([]);
    expect(set.has('s2') || set.has('x')).toBe(false);
  });

  it('answers as a Set of ids does, over random adds, deletes and stores numbered meanwhile', () => {
    const id = fc.integer({ min: 0, max: 80 }).map((n) => `s${n}`);
    const step = fc.oneof(
      fc.record({ add: id }),
      fc.record({ remove: id }),
      fc.record({ meet: id }),
      fc.record({ has: id }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const numbers = new Numbering();
        const set = new StoreSet(numbers);
        const model = new Set<string>();
        for (const s of steps) {
          if ('add' in s) {
            set.add(s.add);
            model.add(s.add);
          } else if ('remove' in s) expect(set.delete(s.remove)).toBe(model.delete(s.remove));
          else if ('meet' in s) numbers.meet(s.meet);
          else expect(set.has(s.has)).toBe(model.has(s.has));
          expect([...set].length).toBe(model.size);
        }
        const listed = [...set];
        expect(new Set(listed).size).toBe(listed.length);
        expect(listed.sort()).toEqual([...model].sort());
      }),
      { numRuns: Number(process.env.FC_NUM_RUNS ?? 200) },
    );
  });
});

describe('CountsPerStore', () => {
  it('tells a count of 0 from a store never counted, numbered or not, and keeps each through growth', () => {
    const numbers = numbered(5);
    const counts = new CountsPerStore(numbers);
    expect(counts.get('s0')).toBeUndefined();
    counts.set('s0', 0).set('s4', 7).set('x', 0);
    expect(counts.get('s0')).toBe(0);
    expect(counts.get('s4')).toBe(7);
    expect(counts.get('x')).toBe(0);
    expect(counts.get('s3')).toBeUndefined();
    for (let i = 5; i < 300; i++) numbers.meet(`s${i}`);
    counts.set('s299', 4_294_967_294);
    expect(counts.get('s299')).toBe(4_294_967_294);
    expect(counts.get('s4')).toBe(7);
    numbers.meet('x');
    expect(counts.get('x')).toBe(0);
    counts.set('x', (counts.get('x') ?? 0) + 1);
    expect(counts.get('x')).toBe(1);
  });

  it('refuses what is not a whole number it can hold', () => {
    const counts = new CountsPerStore(numbered(1));
    for (const bad of [-1, 0.5, 4_294_967_295, Number.NaN])
      expect(() => counts.set('s0', bad)).toThrow(/whole number from 0 to 4,294,967,294/);
    expect(counts.get('s0')).toBeUndefined();
  });

  it('answers as a Map of ids does, over random sets and stores numbered meanwhile', () => {
    const id = fc.integer({ min: 0, max: 80 }).map((n) => `s${n}`);
    const step = fc.oneof(
      fc.record({ set: id, to: fc.nat({ max: 1000 }) }),
      fc.record({ meet: id }),
      fc.record({ get: id }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const numbers = new Numbering();
        const counts = new CountsPerStore(numbers);
        const model = new Map<string, number>();
        for (const s of steps) {
          if ('set' in s) {
            counts.set(s.set, s.to);
            model.set(s.set, s.to);
          } else if ('meet' in s) numbers.meet(s.meet);
          else expect(counts.get(s.get)).toBe(model.get(s.get));
        }
      }),
      { numRuns: Number(process.env.FC_NUM_RUNS ?? 200) },
    );
  });
});

describe('PerStore', () => {
  it('answers as a Map by store number does, and lists its entries in number order', () => {
    const values = new PerStore<string>();
    expect(values.get(0)).toBeUndefined();
    values.set(3, 'c').set(0, 'a').set(3, 'C');
    expect(values.size).toBe(2);
    expect(values.has(1)).toBe(false);
    expect(values.has(3)).toBe(true);
    expect(values.get(3)).toBe('C');
    expect(Object.fromEntries(values)).toEqual({ 0: 'a', 3: 'C' });
    expect(values.byNumber()).toEqual({ 0: 'a', 3: 'C' });
    expect(JSON.stringify(values.byNumber())).toBe('{"0":"a","3":"C"}');
    expect(Object.keys(values.byNumber())).toEqual(['0', '3']);
    values.set(5000, 'far');
    expect([...values]).toEqual([
      [0, 'a'],
      [3, 'C'],
      [5000, 'far'],
    ]);
    expect(values.get(4999)).toBeUndefined();
    values.clear();
    expect(values.size).toBe(0);
    expect([...values]).toEqual([]);
  });

  it('with shared values: the same answers, past the number of values it shares too, and after clear()', () => {
    const values = new PerStore<string>({ shared: 2 });
    // Built anew each time, as a family packs them: equal strings, not the same one.
    const packed = (n: number) => [n, 0, n].join('|');
    for (let store = 0; store < 12; store++) values.set(store, packed(store % 4));
    expect([...values]).toEqual(Array.from({ length: 12 }, (_, store) => [store, packed(store % 4)]));
    values.set(1, packed(9));
    expect(values.get(1)).toBe('9|0|9');
    expect(values.get(5)).toBe('1|0|1');
    values.clear();
    values.set(0, packed(7)).set(1, packed(7));
    expect([...values]).toEqual([
      [0, '7|0|7'],
      [1, '7|0|7'],
    ]);
  });

  it('drops the values no store holds any more once it shares as many as it may, and shares the new ones', () => {
    const values = new PerStore<string>({ shared: 2 });
    values.set(0, 'a').set(1, 'b');
    // 'a' is held no more: dropped to make room for 'c' ('d' is kept by store until as many sets again).
    values.set(0, 'c');
    values.set(1, 'd');
    expect([...values]).toEqual([
      [0, 'c'],
      [1, 'd'],
    ]);
    // Both shared values held: 'e' is kept by store, and given back like the others.
    values.set(2, 'e').set(3, 'c');
    expect([...values]).toEqual([
      [0, 'c'],
      [1, 'd'],
      [2, 'e'],
      [3, 'c'],
    ]);
    values.set(2, 'd');
    expect(values.get(2)).toBe('d');
    expect(values.size).toBe(4);
  });

  it('shares values while it may, keeps the others by store, and drops unused ones only once as many sets have passed', () => {
    const values = new PerStore<string>({ shared: 2 });
    values.set(0, 'a').set(1, 'b');
    expect(values.kept).toEqual({ shared: 2, byStore: 0 });
    values.set(1, 'b');
    expect(values.kept).toEqual({ shared: 2, byStore: 0 });
    // Three sets since: 'a' (held by no store now) is dropped to make room for 'c'.
    values.set(0, 'c');
    expect(values.kept).toEqual({ shared: 2, byStore: 0 });
    // One set since the drop: 'd' is kept by store, though 'b' is held no more.
    values.set(1, 'd');
    expect(values.kept).toEqual({ shared: 2, byStore: 1 });
    // Two sets since: 'b' is dropped and 'e' shared; store 1 keeps its 'd' by store until set again.
    values.set(2, 'e');
    expect(values.kept).toEqual({ shared: 2, byStore: 1 });
    values.set(1, 'c');
    expect(values.kept).toEqual({ shared: 2, byStore: 0 });
    expect([...values]).toEqual([
      [0, 'c'],
      [1, 'c'],
      [2, 'e'],
    ]);
    values.clear();
    expect(values.kept).toEqual({ shared: 0, byStore: 0 });
  });

  it('shares at most 65,534 values (its slots are 16 bits), by default and when asked for more', () => {
    for (const values of [new PerStore<string>(), new PerStore<string>({ shared: 100_000 })]) {
      for (let store = 0; store < 65_600; store++) values.set(store, `v${store}`);
      expect(values.kept).toEqual({ shared: 65_534, byStore: 66 });
      expect(values.get(65_533)).toBe('v65533');
      expect(values.get(65_534)).toBe('v65534');
      expect(values.get(65_599)).toBe('v65599');
    }
  });

  it('answers as a Map by store number does over any sets, whatever the number of values it shares', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.tuple(fc.nat(40), fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), fc.boolean()), { maxLength: 120 }),
        (shared, sets) => {
          const values = new PerStore<string>({ shared });
          const map = new Map<number, string>();
          for (const [store, value, clear] of sets) {
            if (clear && store % 13 === 0) {
              values.clear();
              map.clear();
              continue;
            }
            values.set(store, value);
            map.set(store, value);
            expect(values.get(store)).toBe(value);
          }
          expect(values.size).toBe(map.size);
          expect([...values]).toEqual([...map].sort(([a], [b]) => a - b));
          for (let store = 0; store <= 41; store++) expect(values.has(store)).toBe(map.has(store));
        },
      ),
    );
  });

  it('refuses what is not a store number', () => {
    const values = new PerStore<string>();
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => values.set(bad, 'x')).toThrow(/store number/);
    expect(values.size).toBe(0);
  });
});
