/**
 * The end-of-pass hook (`PASS_END`, not public): called once at the end of each pass, after the
 * pass's records are saved and before the wait, so a checkpoint that holds records (the Postgres
 * mirror's) commits them before the interval rather than after it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents } from '../../src/events/index.js';
import { PASS_END } from '../../src/events/pass-end.js';
import { startSimEnv, type SimEnv } from './support.js';

describe('watcher: the end-of-pass hook', () => {
  let env: SimEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("is called once a pass, after the pass's events were saved and before the wait", async () => {
    env = await startSimEnv('msw');
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 3 });
    const saved: string[] = [];
    const inner = memoryCheckpoint();
    const log: string[] = [];
    const stop = new AbortController();
    const checkpoint = Object.assign(
      {
        load: inner.load,
        save: async (record: string, options?: { replace?: boolean }) => {
          saved.push(record);
          log.push('save');
          await inner.save(record, options);
        },
      },
      {
        [PASS_END]: async () => {
          log.push(`end after ${saved.length} saves`);
          if (log.filter((l) => l.startsWith('end')).length === 3) stop.abort();
        },
      },
    );
    const watcher = watchEvents(env.client(), { checkpoint, signal: stop.signal, maxLag: 60_000 });
    for await (const _ of watcher) log.push('event');
    const ends = log.filter((l) => l.startsWith('end'));
    expect(ends).toHaveLength(3);
    expect(watcher.stats.polls).toBe(3);
    // The first pass delivered the bookings, each saved before the pass ended.
    const firstEnd = log.indexOf(ends[0] as string);
    const first = log.slice(0, firstEnd);
    expect(first.filter((l) => l === 'event').length).toBeGreaterThanOrEqual(6);
    expect(first.at(-1)).toBe('save');
    expect(first.lastIndexOf('event')).toBeLessThan(first.lastIndexOf('save'));
  });
});
