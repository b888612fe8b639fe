/**
 * A set of ids by 64-bit hash (src/events/id-hashes.ts): what it was given it has, whatever the
 * ids (empty, long, any UTF-16, many sharing a prefix); what it was not given it does not, across
 * the table's growth.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdHashSet } from '../../src/events/id-hashes.js';

describe('IdHashSet', () => {
  it('has what it was given and nothing else, across growth from 64 slots to 2^19', () => {
    const set = new IdHashSet();
    for (let i = 0; i < 250_000; i += 2) set.add(`r_${i}`);
    expect(set.size).toBe(125_000);
    let wrong = 0;
    for (let i = 0; i < 250_000; i++) if (set.has(`r_${i}`) !== (i % 2 === 0)) wrong++;
    expect(wrong).toBe(0);
  });

  it('counts an id added twice once', () => {
    const set = new IdHashSet().add('a').add('a').add('').add('');
    expect(set.size).toBe(2);
    expect(set.has('')).toBe(true);
    expect(set.has('b')).toBe(false);
  });

  it('answers as a Set does, for any ids (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'binary' }), { maxLength: 300 }),
        fc.array(fc.string()),
        (given, others) => {
          const set = new IdHashSet();
          for (const id of given) set.add(id);
          const model = new Set(given);
          expect(set.size).toBe(model.size);
          for (const id of given) expect(set.has(id)).toBe(true);
          for (const id of others) expect(set.has(id)).toBe(model.has(id));
        },
      ),
    );
  });
});
