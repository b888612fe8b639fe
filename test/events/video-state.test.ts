/**
 * The video family's state on its own, in memory and beside a checkpoint's table (`VideoTable`, the
 * Postgres mirror's `stream_videos`, here an in-memory table with the same contract): what is read
 * from the table and how often, the bounded cache of stores read, the ids applied and not yet taken
 * for a commit, what a commit and a snapshot hand to the table, and what a snapshot restores.
 * No service: each test runs in milliseconds (it runs once per mutant in the events mutation run).
 */
import { describe, expect, it } from 'vitest';
import {
  isPackedVideos,
  packVideos,
  unpackVideos,
  VIDEO_CACHE,
  videoFamily,
  VideoState,
  videosInMonth,
  type VideoRecord,
  type VideoTable,
} from '../../src/events/videos.js';
import { CheckpointInvalidError } from '../../src/index.js';

/** A table as the mirror's: rows written by a commit, ids held for the next one, a clear that drops the rows with it. */
class MemoryTable implements VideoTable {
  readonly rows = new Map<number, Set<string>>();
  held = new Map<number, Set<string>>();
  cleared = false;
  /** Each `read`'s store, and each `hold`'s store and ids, in order. */
  readonly reads: number[] = [];
  readonly holds: Array<[number, string[]]> = [];

  constructor(rows: Record<number, string[]> = {}) {
    for (const [store, ids] of Object.entries(rows)) this.rows.set(Number(store), new Set(ids));
  }

  async read(store: number): Promise<string[]> {
    this.reads.push(store);
    const held = [...(this.held.get(store) ?? [])];
    if (this.cleared) return held;
    return [...new Set([...(this.rows.get(store) ?? []), ...held])];
  }

  hold(store: number, ids: readonly string[]): void {
    this.holds.push([store, [...ids]]);
    this.held.set(store, new Set([...(this.held.get(store) ?? []), ...ids]));
  }

  clear(): void {
    this.held.clear();
    this.cleared = true;
  }

  /** The checkpoint's commit: what was cleared and held is written. */
  commit(): void {
    if (this.cleared) this.rows.clear();
    for (const [store, ids] of this.held) this.rows.set(store, new Set([...(this.rows.get(store) ?? []), ...ids]));
    this.held = new Map();
    this.cleared = false;
  }
}

const ids = (set: ReadonlySet<string> | undefined) => (set === undefined ? undefined : [...set].sort());

/** A state beside `table` whose stores 0..n-1 have counts records (as a load replays them, then reads begin). */
function withCounts(table: MemoryTable, counts: Record<number, string>): VideoState {
  const videos = new VideoState(table);
  for (const [store, packed] of Object.entries(counts)) videos.apply(['v', Number(store), packed]);
  return videos;
}

describe('the video state beside a table', () => {
  it('reads a store’s ids from the table once, only for a store with counts; delivered() refuses a store not read', async () => {
    const table = new MemoryTable({ 0: ['a', 'b'], 1: [] });
    const videos = withCounts(table, { 0: '2|1|1', 1: '1|0|0' });
    expect(() => videos.delivered(0)).toThrow(
      "The videos of store 0 were not read from the checkpoint's table before use.",
    );
    await videos.read(0);
    expect(ids(videos.delivered(0))).toEqual(['a', 'b']);
    await videos.read(0);
    expect(table.reads).toEqual([0]);
    // A store counted by an older version (counts, no ids anywhere): read, and nothing delivered by id.
    await videos.read(1);
    expect(table.reads).toEqual([0, 1]);
    expect(videos.delivered(1)).toBeUndefined();
    // A store with no counts record has nothing in the table: not read there.
    await videos.read(5);
    expect(table.reads).toEqual([0, 1]);
    expect(videos.delivered(5)).toBeUndefined();
    expect(() => videos.delivered(6)).toThrow('The videos of store 6 were not read');
    expect(videos.videos(0)).toEqual({ seen: 2, cur: 1, prev: 1, edges: [] });
    expect(videos.total).toBe(3);
  });

  it(`keeps the ids of the last ${VIDEO_CACHE} stores read, the least lately read dropped first`, async () => {
    const table = new MemoryTable();
    const counts: Record<number, string> = {};
    for (let store = 0; store <= VIDEO_CACHE + 1; store++) {
      counts[store] = '1|0|0';
      table.rows.set(store, new Set([`v${store}`]));
    }
    const videos = withCounts(table, counts);
    for (let store = 0; store < VIDEO_CACHE; store++) await videos.read(store);
    expect(table.reads).toHaveLength(VIDEO_CACHE);
    // All still held: none read again; store 0, read again, is the newest now.
    await videos.read(0);
    await videos.read(VIDEO_CACHE - 1);
    expect(table.reads).toHaveLength(VIDEO_CACHE);
    // One more: store 1, the least lately read, is dropped; store 0 is not.
    await videos.read(VIDEO_CACHE);
    expect(table.reads).toHaveLength(VIDEO_CACHE + 1);
    await videos.read(0);
    await videos.read(2);
    expect(table.reads).toHaveLength(VIDEO_CACHE + 1);
    expect(() => videos.delivered(1)).toThrow('were not read');
    expect(ids(videos.delivered(0))).toEqual(['v0']);
    expect(ids(videos.delivered(VIDEO_CACHE))).toEqual([`v${VIDEO_CACHE}`]);
    await videos.read(1);
    expect(table.reads.at(-1)).toBe(1);
    expect(ids(videos.delivered(1))).toEqual(['v1']);
    // Store 1 came back as the newest: store 3, now the least lately read, was dropped for it.
    const before = table.reads.length;
    await videos.read(VIDEO_CACHE);
    await videos.read(1);
    await videos.read(0);
    expect(table.reads).toHaveLength(before);
    await videos.read(3);
    expect(table.reads).toHaveLength(before + 1);
  });

  it('ids applied wait for a commit: delivered at once, handed to the table by keep(), the journal line left with the counts', async () => {
    const table = new MemoryTable({ 0: ['a'] });
    const videos = withCounts(table, { 0: '1|1|0' });
    await videos.read(0);
    const record: VideoRecord = ['v', 0, '3|3|0', 'b', 'c'];
    videos.apply(record);
    expect(videos.total).toBe(3);
    expect(ids(videos.delivered(0))).toEqual(['a', 'b', 'c']);
    expect(table.holds).toEqual([]);
    // The commit of the event with `b`: `b` goes to the table, `c` still waits.
    expect(videos.keep(['v', 0, '2|2|0', 'b'])).toStrictEqual(['v', 0, '2|2|0']);
    expect(table.holds).toEqual([[0, ['b']]]);
    expect(ids(videos.delivered(0))).toEqual(['a', 'b', 'c']);
    expect(videos.snapshot()).toEqual({ videos: { 0: '3|3|0' }, videoIds: {} });
    // The snapshot handed the rest (`c`) with the store's counts; nothing left after.
    expect(table.holds).toEqual([
      [0, ['b']],
      [0, ['c']],
    ]);
    videos.snapshot();
    expect(table.holds).toHaveLength(2);
    // A commit of ids a snapshot already handed over: handed again, the table keeps each once.
    expect(videos.keep(['v', 0, '3|3|0', 'c'])).toStrictEqual(['v', 0, '3|3|0']);
    expect(table.holds.at(-1)).toEqual([0, ['c']]);
    table.commit();
    expect([...(table.rows.get(0) ?? [])].sort()).toEqual(['a', 'b', 'c']);
    expect(ids(videos.delivered(0))).toEqual(['a', 'b', 'c']);
    // A record with no ids is the journal's as it is, nothing held.
    const counts: VideoRecord = ['v', 0, '3|3|0'];
    expect(videos.keep(counts)).toBe(counts);
    expect(table.holds).toHaveLength(3);
  });

  it('keep() of every id a store applied leaves nothing for the snapshot; of a store not read, hands them on all the same', async () => {
    const table = new MemoryTable();
    const videos = withCounts(table, {});
    await videos.read(0);
    videos.apply(['v', 0, '1|1|0', 'a']);
    videos.apply(['v', 1, '1|1|0', 'x']);
    expect(videos.keep(['v', 0, '1|1|0', 'a'])).toStrictEqual(['v', 0, '1|1|0']);
    expect(videos.keep(['v', 1, '1|1|0', 'x'])).toStrictEqual(['v', 1, '1|1|0']);
    expect(table.holds).toEqual([
      [0, ['a']],
      [1, ['x']],
    ]);
    expect(ids(videos.delivered(0))).toEqual(['a']);
    // Store 1 was never read: its ids are in the table, read from there when it is.
    expect(() => videos.delivered(1)).toThrow('were not read');
    videos.snapshot();
    expect(table.holds).toHaveLength(2);
    await videos.read(1);
    expect(ids(videos.delivered(1))).toEqual(['x']);
  });

  it('records replayed before any read (a checkpoint written before the table) are to be moved there; not once reads began', async () => {
    const table = new MemoryTable();
    const replay = new VideoState(table);
    replay.apply(['v', 0, '1|1|0']);
    expect(replay.moved).toBe(false);
    replay.apply(['v', 0, '2|2|0', 'a', 'b']);
    expect(replay.moved).toBe(true);
    // The snapshot that moves them writes them to the table, and it is done.
    expect(replay.snapshot()).toEqual({ videos: { 0: '2|2|0' }, videoIds: {} });
    expect(table.holds).toEqual([[0, ['a', 'b']]]);
    expect(replay.moved).toBe(false);

    const running = new VideoState(new MemoryTable());
    await running.read(3);
    running.apply(['v', 3, '1|1|0', 'z']);
    expect(running.moved).toBe(false);
    // In memory, ids are never to be moved.
    const memory = new VideoState();
    memory.apply(['v', 0, '1|1|0', 'a']);
    expect(memory.moved).toBe(false);
  });

  it('forget() clears the table with the counts, the ids read and those waiting', async () => {
    const table = new MemoryTable({ 0: ['a'] });
    const videos = withCounts(table, { 0: '1|1|0' });
    await videos.read(0);
    videos.apply(['v', 1, '2|2|0', 'x', 'y']);
    videos.forget();
    expect(table.cleared).toBe(true);
    expect(videos.total).toBe(0);
    expect(videos.videos(0)).toEqual({ seen: 0, cur: 0, prev: 0, edges: [] });
    expect(() => videos.delivered(0)).toThrow('were not read');
    expect(videos.snapshot()).toEqual({ videos: {}, videoIds: {} });
    expect(table.holds).toEqual([]);
  });
});

describe('the video state in memory', () => {
  it('delivered() is what records applied, per store; keep() and read() leave everything as it was', async () => {
    const videos = new VideoState();
    expect(videos.delivered(0)).toBeUndefined();
    await videos.read(0);
    expect(videos.delivered(0)).toBeUndefined();
    videos.apply(['v', 0, '2|2|0', 'a', 'b']);
    const record: VideoRecord = ['v', 0, '2|2|0', 'a', 'b'];
    expect(videos.keep(record)).toBe(record);
    expect(ids(videos.delivered(0))).toEqual(['a', 'b']);
    expect(videos.snapshot()).toEqual({ videos: { 0: '2|2|0' }, videoIds: { 0: ['a', 'b'] } });
  });

  it('restores a snapshot’s counts with the ids of the stores it lists ids for; refuses a store it does not list', () => {
    const videos = new VideoState();
    expect([...videos.restore({ videos: { 0: '1|1|0', 1: '2|0|2' }, videoIds: { 1: ['x', 'y'] } }, 2)]).toEqual([
      ['v', 0, '1|1|0'],
      ['v', 1, '2|0|2', 'x', 'y'],
    ]);
    expect([...videos.restore({ videos: {}, videoIds: { 0: ['x'] } }, 0)]).toEqual([]);
    const refused = () => [...videos.restore({ videos: { 0: '1|1|0', 2: '1|1|0' } }, 2)];
    expect(refused).toThrow(CheckpointInvalidError);
    expect(refused).toThrow('the snapshot counts videos of store number 2, which it does not list');
    expect([...videos.restore({ videos: { 1: '1|1|0' } }, 2)]).toEqual([['v', 1, '1|1|0']]);
  });

  it('a new month: this month’s counts become last month’s (none after a skipped month), edges before last month dropped', () => {
    const videos = new VideoState();
    videos.apply(['v', 0, '4|3|1|2026-10,2026-11,2026-12']);
    videos.apply(['v', 1, '2|0|2']);
    videos.newMonth('2026-11', '2026-12');
    expect(videos.videos(0)).toEqual({ seen: 4, cur: 0, prev: 3, edges: ['2026-11', '2026-12'] });
    expect(videos.videos(1)).toEqual({ seen: 2, cur: 0, prev: 0, edges: [] });
    videos.newMonth('2026-12', '2027-02');
    expect(videos.videos(0)).toEqual({ seen: 4, cur: 0, prev: 0, edges: [] });
    expect(videos.total).toBe(6);
    expect(videosInMonth('1|1|0|2026-12', '', '2027-01')).toBe('1|0|0|2026-12');
    expect(videosInMonth('1|1|0', '2027-01', '2027-01')).toBe('1|0|0');
  });

  it('billing counts explained ride in the record; a new month drops those before last month', () => {
    const entry = {
      seen: 2,
      cur: 1,
      prev: 1,
      edges: ['2026-11'],
      billed: { '2026-12': 0, '2026-10': 1, '2026-11': 2 },
    };
    expect(packVideos(entry)).toBe('2|1|1|2026-11|2026-10:1,2026-11:2,2026-12:0');
    expect(unpackVideos(packVideos(entry))).toEqual(entry);
    expect(packVideos({ ...entry, edges: [] })).toBe('2|1|1||2026-10:1,2026-11:2,2026-12:0');
    expect(unpackVideos('2|1|1||2026-10:1')).toEqual({ seen: 2, cur: 1, prev: 1, edges: [], billed: { '2026-10': 1 } });
    expect(packVideos({ ...entry, billed: {} })).toBe('2|1|1|2026-11');
    expect(unpackVideos('2|1|1|2026-11')).not.toHaveProperty('billed');
    for (const packed of ['2|1|1||2026-10:1,2026-11:12', '2|1|1|2026-11|2026-10:1', '0|0|0||2026-01:0'])
      expect(isPackedVideos(packed), packed).toBe(true);
    for (const packed of [
      '2|1|1|2026-11|2026-10',
      '2|1|1|2026-11|2026-10:',
      '2|1|1|2026-11|:1',
      '2|1|1|||',
      '2|1|1|2026-11|2026-10:1|',
    ])
      expect(isPackedVideos(packed), packed).toBe(false);
    expect(videosInMonth('2|1|1|2026-11|2026-10:1,2026-11:2,2026-12:0', '2026-12', '2027-01')).toBe('2|0|1||2026-12:0');
    expect(videosInMonth('2|1|1||2026-10:1', '2026-12', '2027-01')).toBe('2|0|1');
  });

  it('packs and unpacks counts with their edges', () => {
    const entry = { seen: 5, cur: 2, prev: 1, edges: ['2026-10', '2026-11'] };
    expect(packVideos(entry)).toBe('5|2|1|2026-10,2026-11');
    expect(unpackVideos(packVideos(entry))).toEqual(entry);
    expect(packVideos({ ...entry, edges: [] })).toBe('5|2|1');
    expect(videoFamily.create()).toBeInstanceOf(VideoState);
    expect(videoFamily.name).toBe('videos');
    for (const packed of [['1|1|0'], { toString: () => '1|1|0' }, 110])
      expect(isPackedVideos(packed), String(packed)).toBe(false);
    expect(isPackedVideos('1|1|0|2026-11')).toBe(true);
    expect(new VideoState().storeOf(['v', 7, '0|0|0'])).toBe(7);
  });

  it('a snapshot’s ids of the videos delivered: per store, a list of ids', () => {
    const valid = (ids: unknown) => videoFamily.snapshot.videoIds?.check(ids);
    for (const ids of [{}, { 0: [] }, { 0: ['a', 'b'], 3: ['c'] }]) expect(valid(ids), JSON.stringify(ids)).toBe(true);
    for (const ids of [null, ['a'], { 0: 'a' }, { 0: [''] }, { 0: [1] }, { 0: ['a'], 1: null }])
      expect(valid(ids), JSON.stringify(ids)).toBe(false);
    expect(videoFamily.snapshot.videoIds?.optional).toBe(true);
  });
});
