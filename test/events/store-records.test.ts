/**
 * The store family's record, `['l', store, 'status|hash[|m]']`: written by its codec (stores.ts),
 * checked by checkpoint-format.ts like the other families', kept by the state (counts by status),
 * saved in a snapshot's `locations` and read back; what is not one is refused. Checkpoints written
 * before the family (no `l` record, no `locations`) load as they did (checkpoint-compat.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLine } from '../../src/events/checkpoint-format.js';
import { isPackedBooking, packBooking, unpackBooking } from '../../src/events/bookings.js';
import { WatchState } from '../../src/events/state.js';
import {
  isPackedStore,
  packStore,
  storeEntryOf,
  storeFamily,
  unpackStore,
  type StoreEntry,
} from '../../src/events/stores.js';
import type { Location } from '../../src/index.js';
import { checkpointOf, refusal } from './checkpoint-lines.js';

const HASH = '0123456789abcdef';
const refused = (line: string, index = 1): string => refusal(line, index);
const loaded = async (lines: string[]): Promise<WatchState> => WatchState.load(await checkpointOf(lines));

const SNAPSHOT = {
  format: 'crp-events/1',
  month: '2026-11',
  tail: { cursor: null, seen: 0 },
  fullAt: null,
  stores: ['s1', 's2'],
  bookings: {},
  videos: {},
};

describe('the store record', () => {
  it('packs and unpacks any status, known or not, with and without hours missing', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom('active', 'paused', 'terminated'), fc.string({ minLength: 1 })),
        fc.stringMatching(/^[0-9a-f]{16}$/),
        fc.boolean(),
        (status, hash, hoursMissing) => {
          const entry: StoreEntry = { status, hash, hoursMissing };
          const packed = packStore(entry);
          expect(isPackedStore(packed), packed).toBe(true);
          expect(unpackStore(packed)).toEqual(entry);
        },
      ),
    );
    expect(packStore({ status: 'paused', hash: HASH, hoursMissing: true })).toBe(`p|${HASH}|m`);
    expect(packStore({ status: 'on hold', hash: HASH, hoursMissing: false })).toBe(`~on%20hold|${HASH}`);
    // Shrunk by fast-check: a status named like a member of Object.prototype is an unknown one, kept whole.
    expect(packStore({ status: 'toString', hash: HASH, hoursMissing: false })).toBe(`~toString|${HASH}`);
    expect(unpackStore(`~constructor|${HASH}`).status).toBe('constructor');
    const booking = { store: 0, status: 'toString', ack: '__proto__', visit: null };
    expect(isPackedBooking(packBooking(booking))).toBe(true);
    expect(unpackBooking(packBooking(booking))).toEqual(booking);
  });

  it('hashes the whole record: any field that changes changes it', () => {
    const store = { partner_location_id: 's1', name: 'A', status: 'active', hours: { state: 'found' } } as Location;
    const a = storeEntryOf(store);
    expect(a).toEqual({ status: 'active', hash: expect.stringMatching(/^[0-9a-f]{16}$/), hoursMissing: false });
    expect(storeEntryOf({ ...store, name: 'B' }).hash).not.toBe(a.hash);
    expect(storeEntryOf({ ...store, hours: { state: 'missing' } } as Location).hoursMissing).toBe(true);
    expect(storeEntryOf({ ...store }).hash).toBe(a.hash);
  });

  it('is read back from a journal line and a snapshot, and counted by status', async () => {
    const records = [
      ['s', 's3'],
      ['l', 0, `a|${HASH}`],
      ['l', 1, `p|${HASH}|m`],
      ['l', 2, `t|${HASH}`],
      ['l', 0, `p|${HASH}`],
    ];
    expect(readLine(JSON.stringify(records), 1)).toEqual({ records });
    const state = await loaded([JSON.stringify(SNAPSHOT), JSON.stringify(records)]);
    expect(state.family(storeFamily).record(0)).toBe(`p|${HASH}`);
    expect(state.family(storeFamily).counts).toEqual({
      read: 3,
      active: 0,
      paused: 2,
      terminated: 1,
      hours_missing: 1,
    });
    const snapshot = JSON.parse(state.snapshot());
    expect(snapshot.locations).toEqual({ 0: `p|${HASH}`, 1: `p|${HASH}|m`, 2: `t|${HASH}` });
    const again = await loaded([state.snapshot()]);
    expect(again.family(storeFamily).counts).toEqual(state.family(storeFamily).counts);
    expect(again.family(storeFamily).record(1)).toBe(`p|${HASH}|m`);
    // A state without store records writes no `locations`: the snapshot an older version wrote.
    expect(JSON.parse((await loaded([JSON.stringify(SNAPSHOT)])).snapshot())).not.toHaveProperty('locations');
  });

  it('refuses what is not one, naming the line and record', async () => {
    for (const record of [
      ['l', -1, `a|${HASH}`],
      ['l', 1.5, `a|${HASH}`],
      ['l', '0', `a|${HASH}`],
      ['l', 0, 'a'],
      ['l', 0, `a|${HASH.slice(1)}`],
      ['l', 0, `A|${HASH}`],
      ['l', 0, `a|${HASH}|x`],
      ['l', 0, `~%E0%A4%A|${HASH}`],
      ['l', 0],
      ['l', 0, `a|${HASH}`, 'more'],
    ]) {
      expect(refused(JSON.stringify([record]))).toContain('line 2, record 1 is not a record this version writes');
    }
    expect(refused(JSON.stringify({ ...SNAPSHOT, locations: { 0: 'a' } }), 0)).toContain(
      "the snapshot's field locations is not valid",
    );
    expect(refused(JSON.stringify({ ...SNAPSHOT, locations: { x: `a|${HASH}` } }), 0)).toContain(
      "the snapshot's field locations is not valid",
    );
    await expect(loaded([JSON.stringify(SNAPSHOT), JSON.stringify([['l', 2, `a|${HASH}`]])])).rejects.toThrow(
      'line 2 names store number 2, which no earlier record added',
    );
    await expect(loaded([JSON.stringify({ ...SNAPSHOT, locations: { 5: `a|${HASH}` } })])).rejects.toThrow(
      'the snapshot holds the record of store number 5, which it does not list',
    );
  });
});
