/**
 * What the watcher hands its parts: a restarted watcher's first choice (before it has timed a
 * reconciliation of its own, it takes one to last maxLag / 10), the store family only when asked
 * for, answers with unusable times counted and logged through the client's logger, and the
 * checkpoint compacted only when the journal outweighs the snapshot.
 */
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type PartnerEventWithStores, type Watcher } from '../../src/events/index.js';
import { useSimEnv } from './support.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Run `watcher` until it has begun `waits` waits of its own, then stop it; its events. */
async function until<E extends PartnerEventWithStores>(
  env: { clock: { sleeps: number[] } },
  watcher: Watcher<E>,
  waits: number,
): Promise<E[]> {
  const events: E[] = [];
  const before = env.clock.sleeps.length;
  const done = (async () => {
    for await (const event of watcher) events.push(event);
  })();
  while (env.clock.sleeps.length < before + waits) await tick();
  watcher.stop();
  await done;
  return events;
}

describe('the watcher and its parts', () => {
  const startSimEnv = useSimEnv();

  it('restarted on a checkpoint, takes a reconciliation to last maxLag / 10: not due at 0.85 maxLag, due at 0.95', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 1 });
    const client = env.client();
    const maxLag = 600_000;
    const checkpoint = memoryCheckpoint();
    const first = watchEvents(client, { checkpoint, maxLag });
    await until(env, first, 1);
    expect(first.stats.lastPass).toEqual({ kind: 'reconciliation', reason: 'first sync' });

    env.clock.advance(0.85 * maxLag);
    const second = watchEvents(client, { checkpoint, maxLag });
    await until(env, second, 1);
    expect(second.stats.lastPass).toEqual({ kind: 'poll', reason: 'not due' });

    env.clock.advance(0.1 * maxLag);
    const third = watchEvents(client, { checkpoint, maxLag });
    await until(env, third, 1);
    expect(third.stats.lastPass).toEqual({ kind: 'reconciliation', reason: 'due' });
  });

  it('reads store records only when started with stores, telling onUnchanged of each read that found nothing new', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 1 });
    const client = env.client();
    const storeReads = (from: number) =>
      env.sandbox.requests.slice(from).filter((r) => /\/locations\/[^/]+$/.test(r.path)).length;

    let from = env.sandbox.requests.length;
    await until(env, watchEvents(client, { checkpoint: memoryCheckpoint() }), 1);
    expect(storeReads(from)).toBe(0);

    from = env.sandbox.requests.length;
    const unchanged: string[] = [];
    const withStores = watchEvents(client, {
      checkpoint: memoryCheckpoint(),
      stores: { onUnchanged: (store) => unchanged.push(store.partner_location_id) },
    });
    const events = await until(env, withStores, 1);
    expect(storeReads(from)).toBeGreaterThanOrEqual(2);
    expect(events.filter((e) => e.type === 'location.updated').length + unchanged.length).toBeGreaterThanOrEqual(2);
  });

  it("counts and logs answers whose time it cannot use (serviceTimeOutliers, once per kind in the client's logger)", async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 0 });
    const warnings: string[] = [];
    let garbled = 0;
    const client = env.client({
      logger: { warn: (message: string) => void warnings.push(message) } as never,
      fetch: async (input, init) => {
        const answer = await fetch(new Request(input, init));
        if (garbled >= 3) return answer;
        garbled++;
        const headers = new Headers(answer.headers);
        headers.set('date', 'not a date');
        return new Response(await answer.arrayBuffer(), { status: answer.status, headers });
      },
    });
    const watcher = watchEvents(client, { checkpoint: memoryCheckpoint() });
    await until(env, watcher, 1);
    expect(watcher.stats.serviceTimeOutliers).toBeGreaterThanOrEqual(1);
    expect(warnings.filter((w) => w.includes('"not a date"'))).toHaveLength(1);
  });

  it('journals each event after the first sync, and compacts only when the journal outweighs the snapshot', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 2 });
    const client = env.client();
    const checkpoint = memoryCheckpoint();
    await until(env, watchEvents(client, { checkpoint }), 1);
    const synced = await checkpoint.load();
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 2, idPrefix: 'late-' });
    const events = await until(env, watchEvents(client, { checkpoint }), 1);
    expect(events).toHaveLength(2);
    const saved = await checkpoint.load();
    // The snapshot of the first sync, and a journal line per event (and perhaps one for the pass).
    expect(saved.slice(0, synced.length)).toEqual(synced);
    expect(saved.length).toBeGreaterThanOrEqual(synced.length + 2);
  });
});
