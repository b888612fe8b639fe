/**
 * WatchState and the packing of its records, without a service: bookings packed to short strings and back (values
 * this version does not know kept whole), the counts and open set kept as records apply, video
 * counts rolled over month ends, the time-zone edges of a month, and the checkpoint's snapshot plus
 * journal written, read back, compacted and refused when it is not ours.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointInvalidError, type Reservation } from '../../src/index.js';
import { memoryCheckpoint, type Checkpoint } from '../../src/events/index.js';
import {
  BOOKING_CACHE,
  bookingFamily,
  entryOf,
  packBooking,
  unpackBooking,
  type BookingEntry,
  type BookingTable,
  type Counts,
} from '../../src/events/bookings.js';
import { monthOf, monthStartNear, nextMonth, previousMonth } from '../../src/events/calendar.js';
import { WatchState, type StateRecord } from '../../src/events/state.js';
import { packVideos, videoFamily, type VideoTable } from '../../src/events/videos.js';
import { STATE_TABLES } from '../../src/events/state-tables.js';

const HOUR = 3_600_000;
const DEC_1 = Date.parse('2026-12-01T00:00:00Z');

const booking = (over: Partial<BookingEntry> = {}): BookingEntry => ({
  store: 0,
  status: 'pending',
  ack: null,
  visit: null,
  ...over,
});
const reservation = (over: Partial<Reservation>) =>
  ({ status: 'pending', visit_at: null, acknowledged_kind: null, ...over }) as Reservation;

/** A checkpoint that holds the given lines. */
async function holding(lines: string[]): Promise<Checkpoint> {
  const checkpoint = memoryCheckpoint();
  for (const line of lines) await checkpoint.save(line);
  return checkpoint;
}

describe('packing a booking', () => {
  it('packs known values to one letter, numbers in base 36', () => {
    expect(packBooking(booking({ store: 40, status: 'confirmed', ack: 'forwarded_to_manager', visit: 123_456 }))).toBe(
      `14|c|f|${(123_456).toString(36)}`,
    );
    expect(packBooking(booking())).toBe('0|p||');
    expect(packBooking(booking({ status: 'no_show', ack: 'acknowledged_self' }))).toBe('0|n|s|');
  });

  it.each<[string, BookingEntry]>([
    ['a pending booking', booking()],
    [
      'a confirmed booking with its visit',
      booking({ store: 7, status: 'confirmed', ack: 'acknowledged_self', visit: 29_000_000 }),
    ],
    ['every known status', booking({ status: 'cancelled', ack: 'forwarded_to_manager' })],
    ['a status this version does not know', booking({ status: 'on_hold|later~%', ack: null })],
    ['an acknowledgement this version does not know', booking({ status: 'completed', ack: 'by_robot' })],
  ])('unpacks what it packed: %s', (_, entry) => {
    expect(unpackBooking(packBooking(entry))).toEqual(entry);
  });

  it('reads the fields missing from a short record as empty', () => {
    expect(unpackBooking('5')).toEqual({ store: 5, status: '', ack: null, visit: null });
    expect(unpackBooking('5|c')).toEqual({ store: 5, status: 'confirmed', ack: null, visit: null });
    const state = new WatchState();
    state.apply(['v', 0, '7']);
    expect(state.family(videoFamily).videos(0)).toEqual({ seen: 7, cur: 0, prev: 0, edges: [] });
    state.apply(['v', 0, '7|2']);
    expect(state.family(videoFamily).videos(0)).toEqual({ seen: 7, cur: 2, prev: 0, edges: [] });
  });

  it('keeps an unknown single letter as it is', () => {
    expect(unpackBooking('2|z|q|')).toEqual({ store: 2, status: 'z', ack: 'q', visit: null });
  });
});

describe('entryOf', () => {
  it('keeps the visit, in epoch minutes, only while confirmed', () => {
    const visitAt = '2026-12-01T10:30:59Z';
    expect(
      entryOf(reservation({ status: 'confirmed', visit_at: visitAt, acknowledged_kind: 'acknowledged_self' }), 3),
    ).toEqual({
      store: 3,
      status: 'confirmed',
      ack: 'acknowledged_self',
      visit: Math.floor(Date.parse(visitAt) / 60_000),
    });
    expect(entryOf(reservation({ status: 'pending', visit_at: visitAt }), 0).visit).toBeNull();
    expect(entryOf(reservation({ status: 'confirmed', visit_at: null }), 0).visit).toBeNull();
    expect(entryOf(reservation({ status: 'confirmed', visit_at: 'soon' }), 0).visit).toBeNull();
  });
});

describe('months', () => {
  it('names UTC months and steps across a year end', () => {
    expect(monthOf(DEC_1 - 1)).toBe('2026-11');
    expect(monthOf(DEC_1)).toBe('2026-12');
    expect(previousMonth('2026-01')).toBe('2025-12');
    expect(previousMonth('2026-12')).toBe('2026-11');
    expect(nextMonth('2026-12')).toBe('2027-01');
    expect(nextMonth('2026-01')).toBe('2026-02');
  });

  it.each<[string, number, string | undefined]>([
    ['14 h before a month starts', DEC_1 - 14 * HOUR, '2026-12'],
    ['just over 14 h before', DEC_1 - 14 * HOUR - 1, undefined],
    ['an hour before', DEC_1 - HOUR, '2026-12'],
    ['the first moment', DEC_1, '2026-12'],
    ['just under 14 h after', DEC_1 + 14 * HOUR - 1, '2026-12'],
    ['14 h after', DEC_1 + 14 * HOUR, undefined],
    ['mid-month', Date.parse('2026-12-15T00:00:00Z'), undefined],
  ])("monthStartNear: %s is within a time zone's reach of the month's start, or not", (_, ms, edge) => {
    expect(monthStartNear(ms)).toBe(edge);
  });
});

describe('WatchState', () => {
  it('numbers stores once, recording only the new ones', () => {
    const state = new WatchState();
    const out: StateRecord[] = [];
    expect(state.ensureStore('loc-a', out)).toBe(0);
    expect(state.ensureStore('loc-b', out)).toBe(1);
    expect(state.ensureStore('loc-a', out)).toBe(0);
    expect(out).toEqual([
      ['s', 'loc-a'],
      ['s', 'loc-b'],
    ]);
    expect(state.stores.toArray()).toEqual(['loc-a', 'loc-b']);
    expect(state.storeIndex('loc-b')).toBe(1);
    expect(state.storeIndex('loc-c')).toBeUndefined();
  });

  it('keeps counts and the open set as bookings change', () => {
    const state = new WatchState();
    const out: StateRecord[] = [];
    state.record(['b', 'r1', packBooking(booking())], out);
    state.record(['b', 'r2', packBooking(booking({ status: 'confirmed', ack: 'acknowledged_self', visit: 10 }))], out);
    expect(out).toHaveLength(2);
    expect(state.family(bookingFamily).size).toBe(2);
    expect(state.family(bookingFamily).counts).toEqual({
      pending: 1,
      confirmed: 1,
      completed: 0,
      no_show: 0,
      unacknowledged: 1,
    });
    expect([...state.family(bookingFamily).open].sort()).toEqual(['r1', 'r2']);

    state.apply(['b', 'r1', packBooking(booking({ status: 'confirmed', ack: 'forwarded_to_manager', visit: 20 }))]);
    expect(state.family(bookingFamily).counts).toEqual({
      pending: 0,
      confirmed: 2,
      completed: 0,
      no_show: 0,
      unacknowledged: 0,
    });
    state.apply(['b', 'r1', packBooking(booking({ status: 'completed', ack: 'forwarded_to_manager' }))]);
    state.apply(['b', 'r2', packBooking(booking({ status: 'rejected', ack: 'acknowledged_self' }))]);
    expect(state.family(bookingFamily).counts).toEqual({
      pending: 0,
      confirmed: 0,
      completed: 1,
      no_show: 0,
      unacknowledged: 0,
    });
    expect([...state.family(bookingFamily).open]).toEqual([]);
    expect(state.family(bookingFamily).booking('r1')).toEqual(
      booking({ status: 'completed', ack: 'forwarded_to_manager' }),
    );
    expect(state.family(bookingFamily).booking('r3')).toBeUndefined();
    expect(state.family(bookingFamily).size).toBe(2);
  });

  it('never counts a status named like a count that is not one', () => {
    const state = new WatchState();
    state.apply(['b', 'r1', packBooking(booking({ status: 'unacknowledged', ack: 'acknowledged_self' }))]);
    expect(state.family(bookingFamily).counts.unacknowledged).toBe(0);
    state.apply(['b', 'r2', packBooking(booking({ status: 'no_show', ack: null }))]);
    expect(state.family(bookingFamily).counts).toEqual({
      pending: 0,
      confirmed: 0,
      completed: 0,
      no_show: 1,
      unacknowledged: 1,
    });
  });

  it('adds up the videos seen across stores', () => {
    const state = new WatchState();
    const out: StateRecord[] = [];
    expect(state.family(videoFamily).videos(0)).toEqual({ seen: 0, cur: 0, prev: 0, edges: [] });
    state.record(['v', 0, packVideos({ seen: 5, cur: 2, prev: 1, edges: ['2026-12'] })], out);
    state.record(['v', 1, packVideos({ seen: 3, cur: 3, prev: 0, edges: [] })], out);
    state.record(['v', 0, packVideos({ seen: 6, cur: 3, prev: 1, edges: ['2026-12'] })], out);
    expect(state.family(videoFamily).total).toBe(9);
    expect(state.family(videoFamily).videos(0)).toEqual({ seen: 6, cur: 3, prev: 1, edges: ['2026-12'] });
    expect(state.family(videoFamily).videos(1)).toEqual({ seen: 3, cur: 3, prev: 0, edges: [] });
    expect(out).toEqual([
      ['v', 0, '5|2|1|2026-12'],
      ['v', 1, '3|3|0'],
      ['v', 0, '6|3|1|2026-12'],
    ]);
  });

  it("rolls this month's video counts into last month's, dropping them when months were skipped", () => {
    const state = new WatchState();
    state.apply(['m', '2026-10']);
    state.apply(['v', 0, '9|4|2|2026-09,2026-10,2026-11']);
    state.apply(['v', 1, '1|1|0']);
    state.apply(['m', '2026-11']);
    expect(state.month).toBe('2026-11');
    expect(state.family(videoFamily).videos(0)).toEqual({ seen: 9, cur: 0, prev: 4, edges: ['2026-10', '2026-11'] });
    expect(state.family(videoFamily).videos(1)).toEqual({ seen: 1, cur: 0, prev: 1, edges: [] });
    state.apply(['v', 0, '10|1|4|2026-10,2026-11']);
    state.apply(['m', '2027-01']);
    expect(state.family(videoFamily).videos(0)).toEqual({ seen: 10, cur: 0, prev: 0, edges: [] });
  });

  it('does not take counts from before the first month it knew as last month', () => {
    const state = new WatchState();
    state.apply(['v', 0, '4|4|0']);
    state.apply(['m', '2026-11']);
    expect(state.family(videoFamily).videos(0)).toEqual({ seen: 4, cur: 0, prev: 0, edges: [] });
  });

  it('keeps the tail and the time of the last full pass', () => {
    const state = new WatchState();
    state.apply(['t', 'cursor-9', 4]);
    state.apply(['f', DEC_1]);
    expect(state.tail).toEqual({ cursor: 'cursor-9', seen: 4 });
    expect(state.fullAt).toBe(DEC_1);
  });
});

describe('WatchState on a checkpoint', () => {
  /** A state with a bit of everything in it. */
  function sample(): WatchState {
    const state = new WatchState();
    const out: StateRecord[] = [];
    state.apply(['m', '2026-11']);
    const a = state.ensureStore('loc-a', out);
    const b = state.ensureStore('loc-b', out);
    state.apply(['b', 'r1', packBooking(booking({ store: a, status: 'confirmed', visit: 99 }))]);
    state.apply(['b', 'r2', packBooking(booking({ store: b, status: 'completed', ack: 'acknowledged_self' }))]);
    state.record(['v', b, packVideos({ seen: 2, cur: 1, prev: 1, edges: ['2026-11'] })], out);
    state.apply(['t', 'c1', 2]);
    state.apply(['f', DEC_1]);
    return state;
  }

  const view = (s: WatchState) => ({
    snapshot: JSON.parse(s.snapshot()),
    counts: s.family(bookingFamily).counts,
    open: [...s.family(bookingFamily).open].sort(),
    videoTotal: s.family(videoFamily).total,
    bookings: s.family(bookingFamily).size,
  });

  it('reads back a snapshot and the journal after it', async () => {
    const state = sample();
    const checkpoint = memoryCheckpoint();
    await state.compact(checkpoint, true);
    const more: StateRecord[] = [];
    state.record(['b', 'r3', packBooking(booking({ store: 1 }))], more);
    state.record(['t', 'c2', 0], more);
    await state.commit(checkpoint, more);
    await state.commit(checkpoint, []);
    expect(await checkpoint.load()).toHaveLength(2);

    const loaded = await WatchState.load(checkpoint);
    expect(view(loaded)).toEqual(view(state));
    expect(loaded.family(bookingFamily).booking('r1')).toEqual(booking({ store: 0, status: 'confirmed', visit: 99 }));
    expect(loaded.month).toBe('2026-11');
    expect(loaded.tail).toEqual({ cursor: 'c2', seen: 0 });
    expect(loaded.fullAt).toBe(DEC_1);
    expect(loaded.storeIndex('loc-b')).toBe(1);
  });

  it('loads an empty checkpoint as an empty state', async () => {
    const loaded = await WatchState.load(memoryCheckpoint());
    expect(loaded.family(bookingFamily).size).toBe(0);
    expect(loaded.fullAt).toBeNull();
    expect(loaded.tail).toEqual({ cursor: null, seen: 0 });
    expect(loaded.month).toBe('');
  });

  // A store keeps each record whole; fileCheckpoint leaves a torn last line out itself. So a damaged last record is damage too.
  it.each([
    ['before the last one', ['[["t","c2"', JSON.stringify([['t', 'c3', 1]])], 'line 2'],
    ['as the last one', [JSON.stringify([['t', 'c2', 1]]), '[["b","r9","0|p'], 'line 3'],
  ])('refuses a record that is not JSON %s', async (_, journal, where) => {
    const checkpoint = await holding([sample().snapshot(), ...journal]);
    const error = await WatchState.load(checkpoint).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointInvalidError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `${where} is not JSON\\. Nothing was changed\\. .*delete it, and the watcher starts again as set by startFrom`,
      ),
    );
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it.each([
    ['another format', JSON.stringify({ format: 'crp-events/0', month: '', stores: [], bookings: {}, videos: {} })],
    ['JSON that is no snapshot', 'null'],
    ['an object without a format', '{}'],
  ])('refuses %s, naming the format it expected', async (_, line) => {
    const error = await WatchState.load(await holding([line])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointInvalidError);
    expect((error as Error).message).toMatch(/line 1 is not a snapshot of the event watcher \(crp-events\/1\)/);
  });

  it('compacts once the journal reaches 64 KiB (when the snapshot is smaller), not before', async () => {
    const state = new WatchState();
    const checkpoint = memoryCheckpoint();
    // A journal line 10 bytes short of 64 KiB, then the shortest line there is (10 bytes).
    const line = (bytes: number): StateRecord[] => [['m', 'x'.repeat(bytes - 10)]];
    expect(JSON.stringify(line(10))).toHaveLength(10);
    await state.compact(checkpoint, true);
    await state.commit(checkpoint, line(64 * 1024 - 10));
    await state.compact(checkpoint);
    expect(await checkpoint.load()).toHaveLength(2);
    await state.commit(checkpoint, line(10));
    await state.compact(checkpoint);
    expect(await checkpoint.load()).toEqual([state.snapshot()]);
  });

  it('compacts once the journal outweighs a snapshot above 64 KiB', async () => {
    const state = new WatchState();
    for (let i = 0; i < 3_000; i++)
      state.apply(['b', `reservation-${i}`, packBooking(booking({ status: 'completed' }))]);
    const checkpoint = memoryCheckpoint();
    await state.compact(checkpoint, true);
    const size = state.snapshot().length;
    expect(size).toBeGreaterThan(64 * 1024);
    await state.commit(checkpoint, [['m', 'x'.repeat(size - 20)]]);
    await state.compact(checkpoint);
    expect(await checkpoint.load()).toHaveLength(2);
    await state.commit(checkpoint, [['m', 'x'.repeat(10)]]);
    await state.compact(checkpoint);
    expect(await checkpoint.load()).toHaveLength(1);
  });

  it('counts the journal it loaded towards the next compaction, and not the snapshot', async () => {
    const big = JSON.stringify([['t', 'x'.repeat(64 * 1024), 0]]);
    const fromJournal = memoryCheckpoint();
    await fromJournal.save(new WatchState().snapshot());
    await fromJournal.save(big);
    const state = await WatchState.load(fromJournal);
    await state.compact(fromJournal);
    expect(await fromJournal.load()).toHaveLength(1);

    // A snapshot line counts as the snapshot: a journal above 64 KiB but below the snapshot is no reason.
    const withSnapshot = memoryCheckpoint();
    const large = new WatchState();
    large.apply(['s', 'loc-a']);
    for (let i = 0; i < 6_000; i++)
      large.apply(['b', `reservation-${i}`, packBooking(booking({ status: 'completed' }))]);
    expect(large.snapshot().length).toBeGreaterThan(100 * 1024);
    await withSnapshot.save(large.snapshot());
    await withSnapshot.save(JSON.stringify([['t', 'x'.repeat(80 * 1024), 1]]));
    const loaded = await WatchState.load(withSnapshot);
    await loaded.compact(withSnapshot);
    expect(await withSnapshot.load()).toHaveLength(2);
  });
});

/**
 * A checkpoint that keeps the bookings in a table of its own (as the Postgres mirror does): what
 * the state holds for it is written to `rows` with the next save, and every read is counted.
 */
function tableCheckpoint(lines: string[] = [], rows = new Map<string, string>()) {
  const inner = memoryCheckpoint();
  let held = new Map<string, string>();
  let clear = false;
  const videoRows = new Set<string>();
  let videosHeld = new Set<string>();
  let videosClear = false;
  const videoReads: number[] = [];
  const videos: VideoTable = {
    read: async (store) => {
      videoReads.push(store);
      const all = [...(videosClear ? [] : videoRows), ...videosHeld];
      return [...new Set(all.filter((row) => row.startsWith(`${store}:`)).map((row) => row.slice(`${store}:`.length)))];
    },
    hold: (store, ids) => {
      for (const id of ids) videosHeld.add(`${store}:${id}`);
    },
    clear: () => {
      videosHeld = new Set();
      videosClear = true;
    },
  };
  const reads: string[][] = [];
  const table: BookingTable = {
    counts: async () => {
      const counts: Counts = { pending: 0, confirmed: 0, completed: 0, no_show: 0, unacknowledged: 0 };
      for (const packed of rows.values()) {
        const e = unpackBooking(packed);
        if (e.status in counts) counts[e.status as keyof Counts]++;
        if (e.ack === null) counts.unacknowledged++;
      }
      return { size: rows.size, counts };
    },
    read: async (ids) => {
      reads.push([...ids]);
      const found = new Map<string, string>();
      for (const id of ids) {
        const packed = held.get(id) ?? (clear ? undefined : rows.get(id));
        if (packed !== undefined) found.set(id, packed);
      }
      return found;
    },
    stores: async (status, { visitBy, except }) => [
      ...new Set(
        [...(clear ? held : new Map([...rows, ...held]))]
          .filter(([id]) => !except.has(id))
          .map(([, packed]) => unpackBooking(packed))
          .filter((e) => e.status === status && (visitBy === undefined || (e.visit !== null && e.visit <= visitBy)))
          .map((e) => e.store),
      ),
    ],
    hold: (id, packed) => void held.set(id, packed),
    clear: () => {
      held = new Map();
      clear = true;
    },
  };
  const checkpoint = {
    load: inner.load,
    save: async (line: string, options?: { replace?: boolean }) => {
      if (clear) rows.clear();
      for (const [id, packed] of held) rows.set(id, packed);
      held = new Map();
      clear = false;
      if (videosClear) videoRows.clear();
      for (const row of videosHeld) videoRows.add(row);
      videosHeld = new Set();
      videosClear = false;
      await inner.save(line, options);
    },
    [STATE_TABLES]: () => ({
      table: (family: string) => (family === 'bookings' ? table : family === 'videos' ? videos : undefined),
    }),
  };
  return {
    checkpoint,
    rows,
    reads,
    videoRows,
    videoReads,
    ready: Promise.all(lines.map((line) => inner.save(line))),
  };
}

describe('WatchState with its bookings and video ids in tables (a checkpoint that supplies them)', () => {
  const pending = (store: number) => packBooking(booking({ store }));
  const confirmed = (store: number, visit: number) => packBooking(booking({ store, status: 'confirmed', visit }));

  it('writes the bookings to the table with the commit, not to the journal, and reads back only counts at load', async () => {
    const t = tableCheckpoint();
    const state = await WatchState.load(t.checkpoint);
    const out: StateRecord[] = [];
    await state.family(bookingFamily).read(['r1', 'r2']);
    const a = state.ensureStore('loc-a', out);
    state.record(['b', 'r1', pending(a)], out);
    state.record(['b', 'r2', confirmed(a, 50)], out);
    await state.commit(t.checkpoint, out); // the first commit: a snapshot
    const more: StateRecord[] = [];
    await state.family(bookingFamily).read(['r1', 'r3']);
    state.record(['b', 'r1', packBooking(booking({ store: a, status: 'rejected', ack: 'acknowledged_self' }))], more);
    state.record(['b', 'r3', pending(a)], more);
    state.record(['t', 'c1', 3], more);
    await state.commit(t.checkpoint, more);

    const lines = await t.checkpoint.load();
    expect(JSON.parse(lines[0] as string).bookings).toEqual({});
    expect(lines.slice(1)).toEqual([JSON.stringify([['t', 'c1', 3]])]);
    expect([...t.rows.keys()].sort()).toEqual(['r1', 'r2', 'r3']);

    t.reads.length = 0;
    const loaded = await WatchState.load(t.checkpoint);
    const bookings = loaded.family(bookingFamily);
    expect(t.reads).toEqual([]);
    expect(bookings.size).toBe(3);
    expect(bookings.counts).toEqual({ pending: 1, confirmed: 1, completed: 0, no_show: 0, unacknowledged: 2 });
    expect(loaded.tail).toEqual({ cursor: 'c1', seen: 3 });
    expect(() => bookings.booking('r2')).toThrow(/not read from the checkpoint's table/);
    await bookings.read(['r2', 'r9']);
    expect(bookings.booking('r2')).toEqual(booking({ store: 0, status: 'confirmed', visit: 50 }));
    expect(bookings.booking('r9')).toBeUndefined();
    expect(await bookings.pendingStoresNotIn(new Set())).toEqual(new Set([0]));
    expect(await bookings.pendingStoresNotIn(new Set(['r3']))).toEqual(new Set());
    expect(await bookings.storesWithVisitsBy(49)).toEqual(new Set());
    expect(await bookings.storesWithVisitsBy(50)).toEqual(new Set([0]));
  });

  it('answers from what it applied and did not commit yet, ahead of the table', async () => {
    const t = tableCheckpoint();
    const state = await WatchState.load(t.checkpoint);
    const out: StateRecord[] = [];
    const a = state.ensureStore('loc-a', out);
    await state.family(bookingFamily).read(['r1']);
    state.record(['b', 'r1', confirmed(a, 10)], out);
    await state.commit(t.checkpoint, out);
    await state.family(bookingFamily).read(['r1']);
    state.record(['b', 'r1', packBooking(booking({ store: a, status: 'completed' }))], []);
    expect(await state.family(bookingFamily).storesWithVisitsBy(20)).toEqual(new Set());
    expect(t.rows.get('r1')).toBe(confirmed(a, 10));
  });

  it('a booking applied and not committed answers for itself at the exact minute, its row in the table left out', async () => {
    const t = tableCheckpoint();
    const state = await WatchState.load(t.checkpoint);
    const bookings = state.family(bookingFamily);
    const out: StateRecord[] = [];
    const a = state.ensureStore('loc-a', out);
    const b = state.ensureStore('loc-b', out);
    await bookings.read(['r1', 'r2']);
    state.record(['b', 'r1', pending(a)], out);
    state.record(['b', 'r2', pending(b)], out);
    await state.commit(t.checkpoint, out);
    await bookings.read(['r2']);
    // r2's row says pending; applied since, it is confirmed with its visit at minute 30.
    state.record(['b', 'r2', confirmed(b, 30)], []);
    expect(await bookings.pendingStoresNotIn(new Set())).toEqual(new Set([a]));
    expect(await bookings.storesWithVisitsBy(29)).toEqual(new Set());
    expect(await bookings.storesWithVisitsBy(30)).toEqual(new Set([b]));
  });

  it('without a table, the same answers from memory: due at the exact minute, pending ones not listed', async () => {
    const state = await WatchState.load(memoryCheckpoint());
    const bookings = state.family(bookingFamily);
    const out: StateRecord[] = [];
    const a = state.ensureStore('loc-a', out);
    const b = state.ensureStore('loc-b', out);
    state.record(['b', 'r1', pending(a)], out);
    state.record(['b', 'r2', confirmed(b, 30)], out);
    state.record(['b', 'r3', confirmed(a, 45)], out);
    expect(await bookings.storesWithVisitsBy(29)).toEqual(new Set());
    expect(await bookings.storesWithVisitsBy(30)).toEqual(new Set([b]));
    expect(await bookings.storesWithVisitsBy(45)).toEqual(new Set([a, b]));
    expect(await bookings.pendingStoresNotIn(new Set())).toEqual(new Set([a]));
    expect(await bookings.pendingStoresNotIn(new Set(['r1']))).toEqual(new Set());
  });

  it('holds a bounded cache: a booking read long ago is read from the table again', async () => {
    const t = tableCheckpoint();
    const state = await WatchState.load(t.checkpoint);
    const bookings = state.family(bookingFamily);
    const ids = Array.from({ length: BOOKING_CACHE + 400 }, (_, i) => `r${i}`);
    for (let i = 0; i < ids.length; i += 200) await bookings.read(ids.slice(i, i + 200));
    t.reads.length = 0;
    await bookings.read(ids.slice(-200));
    expect(t.reads).toEqual([]);
    await bookings.read(['r0']);
    expect(t.reads).toEqual([['r0']]);
  });

  it.each([
    ['last', (old: string, added: string[]) => [...added, old]],
    ['first', (old: string, added: string[]) => [old, ...added]],
  ])(
    'a page read with a full cache keeps every booking of it, the oldest cached one %s on the page',
    async (_, page) => {
      const rows = new Map(Array.from({ length: BOOKING_CACHE }, (_, i) => [`r${i}`, pending(0)] as const));
      const t = tableCheckpoint([], rows);
      const state = await WatchState.load(t.checkpoint);
      state.ensureStore('loc-a', []);
      const bookings = state.family(bookingFamily);
      for (let i = 0; i < BOOKING_CACHE; i += 200) await bookings.read([...rows.keys()].slice(i, i + 200));
      // r0 is the oldest in the cache; the page brings 199 bookings the cache does not hold.
      const ids = page(
        'r0',
        Array.from({ length: 199 }, (_, i) => `new${i}`),
      );
      t.reads.length = 0;
      await bookings.read(ids);
      expect(t.reads).toEqual([ids.filter((id) => id !== 'r0')]);
      for (const id of ids) expect(() => bookings.booking(id)).not.toThrow();
      expect(bookings.booking('r0')).toEqual(booking({ store: 0, status: 'pending' }));
    },
  );

  it('forgets the table with the history: nothing of it is read or listed after', async () => {
    const t = tableCheckpoint();
    const state = await WatchState.load(t.checkpoint);
    const out: StateRecord[] = [];
    const a = state.ensureStore('loc-a', out);
    await state.family(bookingFamily).read(['r1']);
    state.record(['b', 'r1', pending(a)], out);
    await state.commit(t.checkpoint, out);
    const forget: StateRecord[] = [];
    state.record(['r', DEC_1], forget);
    await state.family(bookingFamily).read(['r1']);
    expect(state.family(bookingFamily).booking('r1')).toBeUndefined();
    expect(await state.family(bookingFamily).pendingStoresNotIn(new Set())).toEqual(new Set());
    await state.commit(t.checkpoint, forget);
    expect(t.rows.size).toBe(0);
    expect((await WatchState.load(t.checkpoint)).family(bookingFamily).size).toBe(0);
  });

  it('a reset read back at load leaves the tables (cleared with it) as they are: what came after stays known', async () => {
    const t = tableCheckpoint();
    const state = await WatchState.load(t.checkpoint);
    const out: StateRecord[] = [];
    const a = state.ensureStore('loc-a', out);
    await state.family(bookingFamily).read(['old']);
    state.record(['b', 'old', pending(a)], out);
    await state.commit(t.checkpoint, out);
    const after: StateRecord[] = [];
    state.record(['r', DEC_1], after);
    const b = state.ensureStore('loc-b', after);
    await state.family(bookingFamily).read(['new']);
    state.record(['b', 'new', confirmed(b, 9)], after);
    await state.family(videoFamily).read(b);
    state.record(['v', b, packVideos({ seen: 1, cur: 1, prev: 0, edges: [] }), 'vid-1'], after);
    await state.commit(t.checkpoint, after);
    expect(await t.checkpoint.load()).toHaveLength(2); // the reset is a journal line, not compacted away
    expect([...t.rows.keys()]).toEqual(['new']);

    const loaded = await WatchState.load(t.checkpoint);
    const bookings = loaded.family(bookingFamily);
    expect({ size: bookings.size, confirmed: bookings.counts.confirmed, resets: loaded.resets }).toEqual({
      size: 1,
      confirmed: 1,
      resets: 1,
    });
    await bookings.read(['new']);
    expect(bookings.booking('new')).toEqual(booking({ store: b, status: 'confirmed', visit: 9 }));
    await loaded.family(videoFamily).read(b);
    expect([...(loaded.family(videoFamily).delivered(b) ?? [])]).toEqual(['vid-1']);
    await loaded.commit(t.checkpoint, [['t', 'c2', 1]]);
    expect([...t.rows.keys()]).toEqual(['new']);
    expect([...t.videoRows]).toEqual([`${b}:vid-1`]);
  });

  it('moves the bookings of a checkpoint written without a table into it, with a snapshot that leaves them out', async () => {
    const old = new WatchState();
    const out: StateRecord[] = [];
    const a = old.ensureStore('loc-a', out);
    old.apply(['b', 'r1', confirmed(a, 7)]);
    const journal = JSON.stringify([['b', 'r2', pending(a)]]);
    const t = tableCheckpoint([old.snapshot(), journal]);
    await t.ready;
    const loaded = await WatchState.load(t.checkpoint);
    expect([...t.rows].sort()).toEqual([
      ['r1', confirmed(a, 7)],
      ['r2', pending(a)],
    ]);
    const lines = await t.checkpoint.load();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string).bookings).toEqual({});
    expect(loaded.family(bookingFamily).counts.pending).toBe(1);
    expect(loaded.family(bookingFamily).size).toBe(2);
    const again = await WatchState.load(t.checkpoint);
    expect(again.family(bookingFamily).counts).toEqual(loaded.family(bookingFamily).counts);
  });

  it("writes a store's video ids to the table and its counts to the journal; reads them back a store at a time", async () => {
    const t = tableCheckpoint();
    const state = await WatchState.load(t.checkpoint);
    const out: StateRecord[] = [];
    const a = state.ensureStore('loc-a', out);
    await state.commit(t.checkpoint, out); // the first commit: a snapshot
    const videos = state.family(videoFamily);
    expect(() => videos.delivered(a)).toThrow(/not read from the checkpoint's table/);
    await videos.read(a);
    expect(videos.delivered(a)).toBeUndefined();
    const more: StateRecord[] = [];
    state.record(['v', a, packVideos({ seen: 1, cur: 1, prev: 0, edges: [] }), 'vid-1'], more);
    expect(videos.delivered(a)).toEqual(new Set(['vid-1']));
    await state.commit(t.checkpoint, more);
    expect([...t.videoRows]).toEqual([`${a}:vid-1`]);
    expect((await t.checkpoint.load()).slice(1)).toEqual([JSON.stringify([['v', a, '1|1|0']])]);

    const loaded = await WatchState.load(t.checkpoint);
    const again = loaded.family(videoFamily);
    expect(again.total).toBe(1);
    expect(again.videos(a)).toEqual({ seen: 1, cur: 1, prev: 0, edges: [] });
    t.videoReads.length = 0;
    await again.read(a);
    expect(t.videoReads).toEqual([a]);
    expect(again.delivered(a)).toEqual(new Set(['vid-1']));
  });

  it('moves the video ids of a checkpoint written without a table into it', async () => {
    const old = new WatchState();
    const out: StateRecord[] = [];
    const a = old.ensureStore('loc-a', out);
    old.apply(['v', a, packVideos({ seen: 2, cur: 0, prev: 2, edges: [] }), 'vid-1', 'vid-2']);
    const t = tableCheckpoint([old.snapshot()]);
    await t.ready;
    const loaded = await WatchState.load(t.checkpoint);
    expect([...t.videoRows].sort()).toEqual([`${a}:vid-1`, `${a}:vid-2`]);
    const lines = await t.checkpoint.load();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string).videoIds).toEqual({});
    await loaded.family(videoFamily).read(a);
    expect(loaded.family(videoFamily).delivered(a)).toEqual(new Set(['vid-1', 'vid-2']));
  });
});
