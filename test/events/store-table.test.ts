/**
 * WatchState with a store table (a checkpoint that supplies one, as the Postgres mirror's
 * `stream_stores`): the stores, each one's record and video counts live in the table, written with
 * the save of the line of the event that changed them; the lines list none; a load reads the rows
 * back a page at a time, rolls counts written in an earlier month, keeps to a reset the lines
 * replay, moves an older checkpoint's stores there, and refuses a table that is not a list of stores.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointInvalidError } from '../../src/index.js';
import { memoryCheckpoint, type Checkpoint } from '../../src/events/index.js';
import { storeTableCheckpoint } from './store-table-checkpoint.js';
import { STORE_TABLE, type StoreRow, type StoreTable } from '../../src/events/store-table.js';
import { WatchState, type StateRecord } from '../../src/events/state.js';
import { storeFamily } from '../../src/events/stores.js';
import { videoFamily } from '../../src/events/videos.js';

const DEC_1 = Date.parse('2026-12-01T00:00:00Z');
const record = (status: string, n: number) => `${status}|${n.toString(16).padStart(16, '0')}`;

/** Two stores read and counted, committed as one event's records. */
async function twoStores(checkpoint: Checkpoint): Promise<WatchState> {
  const state = await WatchState.load(checkpoint);
  const out: StateRecord[] = [];
  state.record(['m', '2026-11'], out);
  const a = state.ensureStore('loc-a', out);
  const b = state.ensureStore('loc-b', out);
  state.record(['l', a, record('a', 1)], out);
  state.record(['l', b, `${record('p', 2)}|m`], out);
  state.record(['v', b, '3|2|1'], out);
  await state.commit(checkpoint, out);
  return state;
}

describe('WatchState with a store table', () => {
  it('writes the stores, records and counts to the table with their line; the lines list none; a load reads them back', async () => {
    const t = storeTableCheckpoint();
    const state = await twoStores(t.checkpoint);
    const more: StateRecord[] = [];
    state.record(['l', 0, record('t', 3)], more);
    state.record(['v', 0, '1|1|0', 'video-1'], more);
    state.record(['t', 'c1', 2], more);
    await state.commit(t.checkpoint, more);

    const lines = await t.lines();
    expect(JSON.parse(lines[0] as string)).toMatchObject({ stores: [], videos: {}, month: '2026-11' });
    expect(JSON.parse(lines[0] as string)).not.toHaveProperty('locations');
    expect(lines.slice(1)).toEqual([JSON.stringify([['t', 'c1', 2]])]);
    expect([...t.rows.values()]).toEqual([
      { store: 0, id: 'loc-a', values: { videos: '1|1|0', location: record('t', 3) }, month: '2026-11' },
      { store: 1, id: 'loc-b', values: { videos: '3|2|1', location: `${record('p', 2)}|m` }, month: '2026-11' },
    ]);

    const loaded = await WatchState.load(t.checkpoint);
    expect(loaded.stores.toArray()).toEqual(['loc-a', 'loc-b']);
    expect(loaded.storeIndex('loc-b')).toBe(1);
    expect(loaded.family(storeFamily).record(0)).toBe(record('t', 3));
    expect(loaded.family(storeFamily).counts).toEqual({
      read: 2,
      active: 0,
      paused: 1,
      terminated: 1,
      hours_missing: 1,
    });
    expect(loaded.family(videoFamily).videos(1)).toEqual({ seen: 3, cur: 2, prev: 1, edges: [] });
    expect(loaded.family(videoFamily).total).toBe(4);
    expect(loaded.tail).toEqual({ cursor: 'c1', seen: 2 });
    await loaded.family(videoFamily).read(0);
    expect(loaded.family(videoFamily).delivered(0)).toEqual(new Set(['video-1']));
  });

  it('a load holds no row and saves nothing; a record of no store column (a booking, a position) holds none', async () => {
    const t = storeTableCheckpoint();
    await twoStores(t.checkpoint);
    const lines = await t.lines();
    t.holds.length = 0;
    const loaded = await WatchState.load(t.checkpoint);
    expect(t.holds).toEqual([]);
    expect(await t.lines()).toEqual(lines);
    const out: StateRecord[] = [];
    loaded.record(['b', 'r1', '1|p||'], out);
    loaded.record(['t', 'c1', 1], out);
    await loaded.commit(t.checkpoint, out);
    expect(t.holds).toEqual([]);
    const more: StateRecord[] = [];
    loaded.record(['l', 1, record('a', 5)], more);
    await loaded.commit(t.checkpoint, more);
    expect(t.holds).toEqual([1]);
  });

  it('holds nothing before the line of its event is saved, and a snapshot holds what a silent pass changed', async () => {
    const t = storeTableCheckpoint();
    const state = await twoStores(t.checkpoint);
    const silent: StateRecord[] = [];
    state.ensureStore('loc-c', silent);
    state.record(['l', 2, record('a', 9)], silent);
    await t.checkpoint.save('[["t",null,0]]');
    expect(t.rows.size).toBe(2);
    await state.compact(t.checkpoint, true);
    expect(t.rows.get(2)).toEqual({
      store: 2,
      id: 'loc-c',
      values: { videos: null, location: record('a', 9) },
      month: '2026-11',
    });
    expect((await WatchState.load(t.checkpoint)).stores.toArray()).toEqual(['loc-a', 'loc-b', 'loc-c']);
  });

  it('reads the rows a page at a time', async () => {
    const t = storeTableCheckpoint({ pageRows: 2 });
    const state = await WatchState.load(t.checkpoint);
    const out: StateRecord[] = [];
    for (let i = 0; i < 5; i++) state.record(['l', state.ensureStore(`loc-${i}`, out), record('a', i)], out);
    await state.commit(t.checkpoint, out);
    const loaded = await WatchState.load(t.checkpoint);
    expect(t.pages).toEqual([2, 2, 1]);
    expect(loaded.stores.toArray()).toEqual(['loc-0', 'loc-1', 'loc-2', 'loc-3', 'loc-4']);
    expect(loaded.family(storeFamily).record(4)).toBe(record('a', 4));
  });

  it.each([
    ['the next month', '2026-12', { seen: 3, cur: 0, prev: 2, edges: [] }],
    ['two months on', '2027-01', { seen: 3, cur: 0, prev: 0, edges: [] }],
  ])('rolls counts written in an earlier month to the month the lines reached: %s', async (_, month, expected) => {
    const t = storeTableCheckpoint();
    const state = await twoStores(t.checkpoint);
    const roll: StateRecord[] = [];
    state.record(['m', month], roll);
    await state.commit(t.checkpoint, roll);
    // The roll wrote no row: each keeps the month it was counted in.
    expect(t.rows.get(1)?.month).toBe('2026-11');
    expect(state.family(videoFamily).videos(1)).toEqual(expected);
    const loaded = await WatchState.load(t.checkpoint);
    expect(loaded.month).toBe(month);
    expect(loaded.family(videoFamily).videos(1)).toEqual(expected);
    expect(loaded.family(videoFamily).total).toBe(3);
  });

  it('rolls counts written in a month the lines went back from (the service clock set back across a month) as memory did', async () => {
    const t = storeTableCheckpoint();
    const state = await twoStores(t.checkpoint);
    const back: StateRecord[] = [];
    state.record(['m', '2026-10'], back);
    await state.commit(t.checkpoint, back);
    const loaded = await WatchState.load(t.checkpoint);
    expect(loaded.month).toBe('2026-10');
    expect(loaded.family(videoFamily).videos(1)).toEqual(state.family(videoFamily).videos(1));
    expect(loaded.family(videoFamily).videos(1)).toEqual({ seen: 3, cur: 0, prev: 0, edges: [] });
  });

  it('after a reset the lines replay, the table holds only the stores that came after it', async () => {
    const t = storeTableCheckpoint();
    const state = await twoStores(t.checkpoint);
    const after: StateRecord[] = [];
    state.record(['r', DEC_1], after);
    state.record(['l', state.ensureStore('loc-z', after), record('a', 7)], after);
    await state.commit(t.checkpoint, after);
    expect([...t.rows.keys()]).toEqual([0]);
    const loaded = await WatchState.load(t.checkpoint);
    expect(loaded.stores.toArray()).toEqual(['loc-z']);
    expect(loaded.resets).toBe(1);
    expect(loaded.family(storeFamily).counts.read).toBe(1);
  });

  it('moves the stores of a checkpoint written before the table there, and its snapshot then lists none', async () => {
    const older = memoryCheckpoint();
    await twoStores(older);
    const t = storeTableCheckpoint({ lines: await older.load() });
    await t.ready;
    expect(JSON.parse((await t.lines())[0] as string).stores).toEqual(['loc-a', 'loc-b']);
    const loaded = await WatchState.load(t.checkpoint);
    expect(loaded.stores.toArray()).toEqual(['loc-a', 'loc-b']);
    expect(JSON.parse((await t.lines())[0] as string)).toMatchObject({ stores: [], videos: {} });
    expect(t.rows.size).toBe(2);
    const again = await WatchState.load(t.checkpoint);
    expect(again.family(videoFamily).videos(1)).toEqual({ seen: 3, cur: 2, prev: 1, edges: [] });
    expect(again.family(storeFamily).counts.read).toBe(2);
  });

  const row = (store: number, id: string, over: Partial<StoreRow> = {}): StoreRow => ({
    store,
    id,
    values: { location: record('a', store), videos: null },
    month: '',
    ...over,
  });
  // The lines (none here) reached no month: rows are written in the month '' too.
  it.each<[string, StoreRow[], RegExp]>([
    ['a store number skipped', [row(0, 'a'), row(2, 'b')], /no row for store number 1/],
    ['an id twice', [row(0, 'a'), row(1, 'a')], /row 1 names no store, or one an earlier row names/],
    ['an empty id', [row(0, '')], /row 0 names no store/],
    [
      'a record not of the store family',
      [row(0, 'a', { values: { location: 'active', videos: null } })],
      /no valid location/,
    ],
    ['counts not of the video family', [row(0, 'a', { values: { location: null, videos: '3|x' } })], /no valid videos/],
    ['no month', [row(0, 'a', { month: 'November' })], /written in no month/],
  ])('refuses a table with %s', async (_, rows, message) => {
    const t = storeTableCheckpoint({ rows });
    await expect(WatchState.load(t.checkpoint)).rejects.toThrow(CheckpointInvalidError);
    await expect(WatchState.load(t.checkpoint)).rejects.toThrow(message);
  });

  it('refuses lines that list stores beside a table that lists stores too', async () => {
    const older = memoryCheckpoint();
    await twoStores(older);
    const t = storeTableCheckpoint({ lines: await older.load(), rows: [row(0, 'loc-x')] });
    await t.ready;
    await expect(WatchState.load(t.checkpoint)).rejects.toThrow(
      /lines list 2 stores and its store table lists stores too/,
    );
  });

  it('needs the video ids in a table of their own beside a store table', () => {
    const table: StoreTable = { rows: async function* () {}, hold: () => undefined, clear: () => undefined };
    const tables = { table: (name: string) => (name === STORE_TABLE ? table : undefined) };
    expect(() => new WatchState(undefined, tables)).toThrow(/keeps the videos's records in a table too/);
  });
});
