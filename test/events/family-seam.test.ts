/**
 * The seam for a family of changes: the state and the checkpoint's checks know a family only
 * through its `Family` (family.ts), listed in families.ts. A toy family, registered here only,
 * has its records applied, saved and reloaded, its snapshot field written and checked, and is
 * forgotten on a history reset, with no line of state.ts or checkpoint-format.ts naming it. What
 * the families of this version write stays byte for byte the format-1 layout a rollback reads.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointInvalidError, memoryCheckpoint } from '../../src/events/index.js';
import { FAMILIES } from '../../src/events/families.js';
import type { Family, FamilyState } from '../../src/events/family.js';
import { count, id, isObject, type StateRecord } from '../../src/events/records.js';
import { WatchState } from '../../src/events/state.js';

type ToyRecord = ['z', number, string];

class ToyState implements FamilyState<ToyRecord> {
  readonly notes = new Map<number, string>();
  months: string[] = [];
  apply(record: ToyRecord): void {
    this.notes.set(record[1], record[2]);
  }
  storeOf(record: ToyRecord): number {
    return record[1];
  }
  snapshot(): Record<string, unknown> {
    return this.notes.size > 0 ? { toyNotes: Object.fromEntries(this.notes) } : {};
  }
  *restore(snapshot: Readonly<Record<string, unknown>>): Iterable<ToyRecord> {
    for (const [store, note] of Object.entries((snapshot.toyNotes ?? {}) as Record<string, string>))
      yield ['z', Number(store), note];
  }
  newMonth(_from: string, to: string): void {
    this.months.push(to);
  }
  forget(): void {
    this.notes.clear();
  }
}

const toyFamily: Family<ToyRecord, ToyState> = {
  records: [{ kind: 'z', checks: [count, id] }],
  snapshot: { toyNotes: { check: (v) => isObject(v) && Object.values(v).every(id), optional: true } },
  create: () => new ToyState(),
};
const WITH_TOY: readonly Family[] = [...FAMILIES, toyFamily];
const toy = (record: ToyRecord) => record as unknown as StateRecord;

describe('a family registered in a list of families', () => {
  it('has its records applied, saved in the journal and in its snapshot field, and reloaded', async () => {
    const checkpoint = memoryCheckpoint();
    const state = new WatchState(WITH_TOY);
    const records: StateRecord[] = [];
    state.ensureStore('s1', records);
    state.record(toy(['z', 0, 'first']), records);
    await state.commit(checkpoint, records);
    await state.commit(checkpoint, [toy(['z', 0, 'second'])]);
    state.apply(toy(['z', 0, 'second']));
    const lines = await checkpoint.load();
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] as string).toyNotes).toEqual({ 0: 'first' });
    expect(JSON.parse(lines[1] as string)).toEqual([['z', 0, 'second']]);

    const reloaded = await WatchState.load(checkpoint, undefined, [], WITH_TOY);
    expect(reloaded.family(toyFamily).notes).toEqual(new Map([[0, 'second']]));
    await reloaded.compact(checkpoint, true);
    expect(await checkpoint.load()).toEqual([state.snapshot()]);
    const fromSnapshot = await WatchState.load(checkpoint, undefined, [], WITH_TOY);
    expect(fromSnapshot.family(toyFamily).notes).toEqual(new Map([[0, 'second']]));
  });

  it('is refused by a state that does not keep it: its snapshot field and its records are not this version’s', async () => {
    const state = new WatchState(WITH_TOY);
    const records: StateRecord[] = [];
    state.ensureStore('s1', records);
    state.record(toy(['z', 0, 'note']), records);
    const snapshot = memoryCheckpoint();
    await snapshot.save(state.snapshot(), { replace: true });
    await expect(WatchState.load(snapshot)).rejects.toThrow(/fields this version does not know \(toyNotes\)/);
    const journal = memoryCheckpoint();
    await journal.save(new WatchState(WITH_TOY).snapshot(), { replace: true });
    await journal.save(JSON.stringify(records));
    await expect(WatchState.load(journal)).rejects.toThrow(/record 2 is not a record this version writes/);
  });

  it('has its records checked: a bad value, or a store no earlier record added, is refused', async () => {
    const base = new WatchState(WITH_TOY).snapshot();
    for (const [line, why] of [
      ['[["s","s1"],["z",0,""]]', /record 2 is not a record/],
      ['[["s","s1"],["z",1,"n"]]', /names store number 1, which no earlier record added/],
    ] as const) {
      const checkpoint = memoryCheckpoint();
      await checkpoint.save(base, { replace: true });
      await checkpoint.save(line);
      const loading = WatchState.load(checkpoint, undefined, [], WITH_TOY);
      await expect(loading).rejects.toBeInstanceOf(CheckpointInvalidError);
      await expect(loading).rejects.toThrow(why);
    }
  });

  it('is told of a new month and forgets on a history reset', () => {
    const state = new WatchState(WITH_TOY);
    state.apply(['s', 's1']);
    state.apply(toy(['z', 0, 'note']));
    state.apply(['m', '2026-11']);
    state.apply(['r', 1]);
    expect(state.family(toyFamily).months).toEqual(['2026-11']);
    expect(state.family(toyFamily).notes.size).toBe(0);
    expect(state.blank).toBe(false);
  });

  it('may not take a record kind or snapshot field another family has', async () => {
    const twice = [...WITH_TOY, { ...toyFamily, snapshot: {} }];
    await expect(WatchState.load(memoryCheckpoint(), undefined, [], twice)).resolves.toBeDefined();
    const checkpoint = memoryCheckpoint();
    await checkpoint.save(new WatchState().snapshot(), { replace: true });
    await expect(WatchState.load(checkpoint, undefined, [], twice)).rejects.toThrow(/same record kind/);
    const field = [...FAMILIES, { ...toyFamily, snapshot: { videos: toyFamily.snapshot.toyNotes } }] as Family[];
    await expect(WatchState.load(checkpoint, undefined, [], field)).rejects.toThrow(/same snapshot field/);
  });
});

describe('the families of this version on the checkpoint', () => {
  it('write the format-1 snapshot byte for byte (keys, order and packing a rollback reads)', () => {
    const state = new WatchState();
    state.identity = { key: '0123456789abcdef', service: 'https://sandbox.crp.test' };
    for (const record of [
      ['m', '2026-11'],
      ['s', 's1'],
      ['s', 's2'],
      ['b', 'r1', '0|p||'],
      ['b', 'r2', '1|c|f|s3m0'],
      ['v', 1, '2|2|0', 'v1', 'v2'],
      ['l', 0, 'a|0123456789abcdef|m'],
      ['t', 'cur', 2],
      ['f', 1_790_000_000_000],
    ] as StateRecord[])
      state.apply(record);
    expect(state.snapshot()).toBe(
      '{"format":"crp-events/1","month":"2026-11","tail":{"cursor":"cur","seen":2},"fullAt":1790000000000,' +
        '"stores":["s1","s2"],"bookings":{"r1":"0|p||","r2":"1|c|f|s3m0"},"videos":{"1":"2|2|0"},' +
        '"videoIds":{"1":["v1","v2"]},"locations":{"0":"a|0123456789abcdef|m"},' +
        '"key":"0123456789abcdef","service":"https://sandbox.crp.test","seenAt":null,"resets":0}',
    );
    const empty = new WatchState();
    expect(empty.snapshot()).toBe(
      '{"format":"crp-events/1","month":"","tail":{"cursor":null,"seen":0},"fullAt":null,"stores":[],' +
        '"bookings":{},"videos":{},"videoIds":{},"seenAt":null,"resets":0}',
    );
  });
});
