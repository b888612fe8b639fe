/**
 * WatchState and the packing of its records, without a service: bookings packed to short strings and back (values
 * this version does not know kept whole), the counts and open set kept as records apply, video
 * counts rolled over month ends, the time-zone edges of a month, and the checkpoint's snapshot plus
 * journal written, read back, compacted and refused when it is not ours.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointInvalidError, type Reservation } from '../../src/index.js';
import { memoryCheckpoint, type Checkpoint } from '../../src/events/index.js';
import { bookingFamily, entryOf, packBooking, unpackBooking, type BookingEntry } from '../../src/events/bookings.js';
import { monthOf, monthStartNear, nextMonth, previousMonth } from '../../src/events/calendar.js';
import { WatchState, type StateRecord } from '../../src/events/state.js';
import { packVideos, videoFamily } from '../../src/events/videos.js';

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
    expect(state.stores).toEqual(['loc-a', 'loc-b']);
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
