/**
 * A restart between a history reset and the first time the service confirms: after the reset the
 * booking list showed, every summary tells a different time hours ahead (no two agree), so the
 * reset is saved with the earliest of them, a time the service never confirmed. The watcher stops
 * there and a new one starts on the same checkpoint, whose answers are right. The checkpoint says
 * the saved times are provisional (a `p` record): the first confirmed time corrects them, and the
 * service's true time, hours before them, is not taken for a second history gone back.
 */
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, type Checkpoint, type PartnerEvent } from '../../src/events/index.js';
import { WatchState, type StateRecord } from '../../src/events/state.js';
import { isoTime, type TimeRewrite } from './service-time-proxy.js';
import { startRewindableEnv, watchUntil } from './service-time-rewind.js';

const HOUR = 3_600_000;
const OPTIONS = { startFrom: 'now', minInterval: 60_000, maxInterval: 600_000, maxLag: HOUR } as const;
const POPULATE = { locations: 6, reservationsPerLocation: 3 } as const;

describe('a restart before the service confirmed the time a history reset was saved with', () => {
  it('the saved times stay provisional across it: no second history reset, nothing delivered again', {
    timeout: 60_000,
  }, async () => {
    const env = startRewindableEnv({ now: '2026-11-25T00:00:00Z', visitsPerWeek: 30 });
    try {
      env.sandbox.populate(env.key, POPULATE);
      const start = env.clock.now();
      const checkpoint = memoryCheckpoint();
      let ahead = false;
      let answers = 0;
      // Hours ahead, 7 minutes apart on each answer: no two agree. Date left out, so only the summaries tell a time.
      const rewrite = (): TimeRewrite =>
        ahead
          ? { date: null, generatedAt: isoTime(env.sandbox.clock.now().getTime() + 6 * HOUR + ++answers * 420_000) }
          : {};
      const delivered: PartnerEvent[] = [];
      let beforeReset = 0;
      env.at(start + 3 * HOUR, () => {
        beforeReset = delivered.length;
        env.rewind(POPULATE);
        ahead = true;
      });
      const first = await watchUntil(env, checkpoint, OPTIONS, rewrite, start + 5 * HOUR, delivered);
      // The reset happened, and was saved with a time the service did not confirm.
      expect(first.watcher.stats.historyResets).toBe(1);
      expect(first.watcher.stats.lastHistoryReset).not.toMatch(/clock/);
      const afterReset = new Set(first.events.slice(beforeReset).map((e) => e.id));
      expect(afterReset.size).toBeGreaterThan(0);

      ahead = false;
      const second = await watchUntil(env, checkpoint, OPTIONS, () => ({}), env.clock.now() + 2 * HOUR);
      expect({
        resets: second.watcher.stats.historyResets,
        reason: second.watcher.stats.lastHistoryReset,
        again: second.events.filter((e) => afterReset.has(e.id)).length,
      }).toEqual({ resets: 0, reason: null, again: 0 });
    } finally {
      await env.close();
    }
  });
});

describe('the provisional mark on the checkpoint', () => {
  it('a `p` record marks the times saved with it, a snapshot keeps the mark, and once cleared the snapshot is as before', async () => {
    const checkpoint = memoryCheckpoint();
    const state = await WatchState.load(checkpoint);
    const before = state.snapshot();
    await state.compact(checkpoint, true);
    const records: StateRecord[] = [];
    state.record(['r', Date.parse('2026-11-25T06:00:00Z')], records);
    state.record(['p'], records);
    await state.commit(checkpoint, records);
    expect(await checkpoint.load()).toHaveLength(2);
    expect((await WatchState.load(checkpoint)).provisional).toBe(true);
    await state.compact(checkpoint, true);
    expect(JSON.parse((await checkpoint.load())[0] as string)).toMatchObject({ provisional: true });
    expect((await WatchState.load(checkpoint)).provisional).toBe(true);
    // A history reset forgets the mark with the rest; the `p` after it sets it again.
    state.apply(['r', Date.parse('2026-11-25T07:00:00Z')]);
    expect(state.provisional).toBe(false);
    state.seenAt = null;
    state.resets = 0;
    expect(state.snapshot()).toBe(before);
    await expect(WatchState.load(memoryWith('[["p", 1]]'))).rejects.toThrow(/not a record this version writes/);
  });
});

function memoryWith(...lines: string[]): Checkpoint {
  const checkpoint = memoryCheckpoint();
  for (const line of lines) void checkpoint.save(line);
  return checkpoint;
}
