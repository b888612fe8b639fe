/**
 * Videos tracked by id: the state's records and snapshot carry the ids delivered per store, a
 * snapshot an older version wrote (a count per store, no ids) still loads, and a watcher on such a
 * checkpoint takes the first `seen` listed videos as delivered, as that version did, then tracks
 * the store by id.
 */
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type Checkpoint } from '../../src/events/index.js';
import { WatchState } from '../../src/events/state.js';
import { CheckpointInvalidError } from '../../src/index.js';
import { CONTENT, hostileFetch, runWhile } from './hostile.js';
import { useSimEnv, type SimEnv } from './support.js';
import { videoFamily } from '../../src/events/videos.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function holding(lines: string[]): Promise<Checkpoint> {
  const checkpoint = memoryCheckpoint();
  for (const [i, line] of lines.entries()) await checkpoint.save(line, { replace: i === 0 });
  return checkpoint;
}

/** A snapshot as the version before ids wrote it: no `videoIds`. */
function olderSnapshot(state: WatchState, edit: (videos: Record<string, string>) => void = () => {}): string {
  const snapshot = JSON.parse(state.snapshot()) as Record<string, unknown> & { videos: Record<string, string> };
  delete snapshot.videoIds;
  edit(snapshot.videos);
  return JSON.stringify(snapshot);
}

describe('WatchState: delivered videos by id', () => {
  it('adds the ids a record carries, keeps them through a snapshot, and counts seen apart', async () => {
    const state = new WatchState();
    state.apply(['s', 'sf-1']);
    expect(state.family(videoFamily).delivered(0)).toBeUndefined();
    state.apply(['v', 0, '1|1|0', 'vid_a']);
    state.apply(['v', 0, '2|2|0', 'vid_b']);
    state.apply(['v', 0, '2|2|0']);
    expect([...(state.family(videoFamily).delivered(0) ?? [])]).toEqual(['vid_a', 'vid_b']);
    expect(state.family(videoFamily).total).toBe(2);
    const again = await WatchState.load(await holding([state.snapshot()]));
    expect([...(again.family(videoFamily).delivered(0) ?? [])]).toEqual(['vid_a', 'vid_b']);
    expect(again.family(videoFamily).videos(0)).toEqual(state.family(videoFamily).videos(0));
    expect(again.family(videoFamily).total).toBe(2);
  });

  it('loads a snapshot an older version wrote (a count, no ids): the store is tracked by count until read again', async () => {
    const state = new WatchState();
    state.apply(['s', 'sf-1']);
    state.apply(['v', 0, '3|1|2', 'vid_a', 'vid_b', 'vid_c']);
    const older = await WatchState.load(await holding([olderSnapshot(state), JSON.stringify([['v', 0, '4|2|2']])]));
    expect(older.family(videoFamily).delivered(0)).toBeUndefined();
    expect(older.family(videoFamily).videos(0).seen).toBe(4);
    expect(older.family(videoFamily).total).toBe(4);
  });

  it.each([
    ['a number', 7],
    ['empty', ''],
  ])('refuses a video record whose id is %s', async (_, bad) => {
    const state = new WatchState();
    state.apply(['s', 'sf-1']);
    const line = (id: unknown) => [state.snapshot(), JSON.stringify([['v', 0, '2|0|0', 'vid_a', id]])];
    expect([...((await WatchState.load(await holding(line('vid_b')))).family(videoFamily).delivered(0) ?? [])]).toEqual(
      ['vid_a', 'vid_b'],
    );
    await expect(WatchState.load(await holding(line(bad)))).rejects.toBeInstanceOf(CheckpointInvalidError);
  });

  it.each([
    ['not a list', { 0: 'vid_a' }],
    ['a list with a number', { 0: ['vid_a', 7] }],
  ])('refuses a snapshot whose video ids are %s', async (_, videoIds) => {
    const state = new WatchState();
    state.apply(['s', 'sf-1']);
    state.apply(['v', 0, '1|0|0', 'vid_a']);
    const snapshot = { ...JSON.parse(state.snapshot()), videoIds };
    await expect(WatchState.load(await holding([JSON.stringify(snapshot)]))).rejects.toBeInstanceOf(
      CheckpointInvalidError,
    );
  });
});

describe('a watcher on a checkpoint that counted videos', () => {
  let env: SimEnv;
  const startSimEnv = useSimEnv();

  it('takes the first `seen` listed videos as delivered, delivers the rest, then goes by id', {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv('msw', { now: '2026-11-02T00:00:00Z', visitsPerWeek: 10 });
    env.sandbox.populate(env.key, { locations: 3, reservationsPerLocation: 10 });
    // Videos posted since the stores enrolled (billing lists a store from then on).
    env.sandbox.clock.advance({ ms: 20 * DAY });
    const client = env.client();
    const lists = await Promise.all(
      env.sandbox.inspect.stores(env.key).map(async (s) => ({
        id: s.partner_location_id,
        listed: (await client.content.list(s.partner_location_id, { limit: 200 })).items.map((v) => v.video_id),
      })),
    );
    const { id: storeId, listed } = lists.sort((a, b) => b.listed.length - a.listed.length)[0] as {
      id: string;
      listed: string[];
    };
    expect(listed.length).toBeGreaterThan(2);

    // A first sync, then its state as the version before ids saved it, with the store's last two
    // listed videos not delivered yet (and its month counts stale, so billing points at it).
    const first = memoryCheckpoint();
    const sync = new AbortController();
    const syncing = watchEvents(client, { checkpoint: first, signal: sync.signal, maxLag: HOUR });
    await runWhile(syncing, sync, () => syncing.stats.reconciliations < 1);
    const synced = await WatchState.load(first);
    const index = synced.storeIndex(storeId) as number;
    expect(synced.family(videoFamily).delivered(index)?.size).toBe(listed.length);
    const checkpoint = await holding([
      olderSnapshot(synced, (v) => {
        v[index] = `${listed.length - 2}|0|0`;
      }),
    ]);

    // The service lists the store's videos in its own order on the first read, reversed on any later one.
    let reads = 0;
    const reversing = hostileFetch(CONTENT, (page, url) =>
      !url.pathname.includes(`/${storeId}/`) || reads++ === 0 ? page : { ...page, items: [...page.items].reverse() },
    );
    const controller = new AbortController();
    const watcher = watchEvents(env.client({ fetch: reversing }), {
      checkpoint,
      signal: controller.signal,
      minInterval: 60_000,
      maxLag: HOUR,
    });
    const events = await runWhile(watcher, controller, () => watcher.stats.reconciliations < 3);
    expect(reads).toBeGreaterThanOrEqual(1);
    const published = events.flatMap((e) =>
      e.type === 'video.published' && e.partner_location_id === storeId ? [e.data.video_id] : [],
    );
    expect(published.filter((id) => listed.includes(id))).toEqual(listed.slice(-2));
    expect(new Set(published).size).toBe(published.length);
    const after = await WatchState.load(checkpoint);
    expect([...(after.family(videoFamily).delivered(index) ?? [])].sort()).toEqual(
      [...new Set([...listed, ...published])].sort(),
    );
  });
});
