/**
 * Each store's record in typed arrays (src/events/store-record-slots.ts): the same answers as a
 * `Map` of numbers, for records of the usual form, records of any other, and more statuses than
 * the arrays number.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreRecordSlots } from '../../src/events/store-record-slots.js';

describe('StoreRecordSlots', () => {
  it('gives back each record as set: status, both halves of the hash (leading zeros kept) and the missing hours', () => {
    const slots = new StoreRecordSlots();
    expect(slots.get(0)).toBeUndefined();
    slots.set(2, 'a|00000000ffffffff').set(0, 'p|ffffffff00000000|m').set(40, '~closed%7Cfor%20good|0123456789abcdef');
    expect(slots.get(2)).toBe('a|00000000ffffffff');
    expect(slots.get(0)).toBe('p|ffffffff00000000|m');
    expect(slots.get(40)).toBe('~closed%7Cfor%20good|0123456789abcdef');
    expect(slots.get(1)).toBeUndefined();
    expect(slots.get(41)).toBeUndefined();
    expect(slots.size).toBe(3);
    slots.set(0, 'a|0000000000000001');
    expect(slots.get(0)).toBe('a|0000000000000001');
    expect(slots.size).toBe(3);
    expect(slots.byNumber()).toEqual(Object.fromEntries(slots));
    expect(Object.keys(slots.byNumber())).toEqual(['0', '2', '40']);
    expect(Object.fromEntries(slots)).toEqual({
      0: 'a|0000000000000001',
      2: 'a|00000000ffffffff',
      40: '~closed%7Cfor%20good|0123456789abcdef',
    });
    slots.clear();
    expect(slots.size).toBe(0);
    expect([...slots]).toEqual([]);
    expect(slots.get(2)).toBeUndefined();
  });

  it('keeps a record of another form as it is, in number order with the others, and replaces it either way', () => {
    const slots = new StoreRecordSlots();
    slots.set(5, 'a|0123456789abcdef').set(3, 'odd').set(9, 'a|0123456789ABCDEF').set(7, 'a|0123|m');
    expect([...slots]).toEqual([
      [3, 'odd'],
      [5, 'a|0123456789abcdef'],
      [7, 'a|0123|m'],
      [9, 'a|0123456789ABCDEF'],
    ]);
    slots.set(3, 't|fedcba9876543210').set(5, 'also odd');
    expect(slots.get(3)).toBe('t|fedcba9876543210');
    expect(slots.get(5)).toBe('also odd');
    expect(slots.size).toBe(4);
  });

  it('numbers 127 statuses; the 128th and later are kept as they are, and all read back', () => {
    const slots = new StoreRecordSlots();
    const record = (i: number) => `~status${i}|${i.toString(16).padStart(16, '0')}${i % 2 ? '|m' : ''}`;
    for (let i = 0; i < 200; i++) slots.set(i, record(i));
    for (let i = 0; i < 200; i++) expect(slots.get(i)).toBe(record(i));
    expect(slots.size).toBe(200);
  });

  it('refuses what is not a store number', () => {
    const slots = new StoreRecordSlots();
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => slots.set(bad, 'a|0123456789abcdef')).toThrow(/store number/);
    expect(slots.size).toBe(0);
  });

  it('answers as a Map of numbers does, for any sets and clears (property)', () => {
    const hash = fc.stringMatching(/^[0-9a-f]{16}$/);
    const record = fc.oneof(
      fc
        .tuple(fc.constantFrom('a', 'p', 't', '~x', '~y%7C'), hash, fc.boolean())
        .map(([s, h, m]) => `${s}|${h}${m ? '|m' : ''}`),
      fc.string(),
    );
    const step = fc.oneof(
      fc.tuple(fc.nat(300), record).map(([store, value]) => ({ store, value })),
      fc.constant('clear' as const),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        const slots = new StoreRecordSlots();
        const model = new Map<number, string>();
        for (const s of steps) {
          if (s === 'clear') {
            slots.clear();
            model.clear();
          } else {
            slots.set(s.store, s.value);
            model.set(s.store, s.value);
          }
        }
        expect(slots.size).toBe(model.size);
        expect([...slots]).toEqual([...model].sort((a, b) => a[0] - b[0]));
        expect(slots.byNumber()).toEqual(Object.fromEntries(model));
        for (let store = 0; store <= 300; store++) expect(slots.get(store)).toBe(model.get(store));
      }),
    );
  });
});
