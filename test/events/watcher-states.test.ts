/**
 * The watcher around its passes: one loop per watcher and per checkpoint in a process, the lock
 * (standby, status, outages, release), stopping before the loop, while standing by and while
 * waiting, a client closed before the loop, errors that end the loop, a shared budget, a silent
 * first sync (`startFrom: 'now'`) and the stats each pass leaves.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointLockedError, type ClientClock } from '../../src/index.js';
import {
  memoryCheckpoint,
  watchEvents,
  type Checkpoint,
  type LockOptions,
  type LockStatus,
  type PartnerEvent,
  type Watcher,
} from '../../src/events/index.js';
import { withSharedBudget } from '../../src/events/shared-budget.js';
import { useSimEnv } from './support.js';

async function all(watcher: AsyncIterable<PartnerEvent>, upTo = Number.POSITIVE_INFINITY): Promise<PartnerEvent[]> {
  const events: PartnerEvent[] = [];
  for await (const event of watcher) {
    events.push(event);
    if (events.length >= upTo) break;
  }
  return events;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the watcher around its passes', () => {
  const startSimEnv = useSimEnv();

  it('is iterated once, and one checkpoint serves one loop at a time in a process', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 3 });
    const client = env.client();
    const checkpoint = memoryCheckpoint();
    const first = watchEvents(client, { checkpoint });
    const iterator = first[Symbol.asyncIterator]();
    expect(() => first[Symbol.asyncIterator]()).toThrow(
      new TypeError('A watcher can be iterated once. Call watchEvents() again for a new loop.'),
    );
    await iterator.next();
    await expect(all(watchEvents(client, { checkpoint }))).rejects.toThrow(
      new CheckpointLockedError(
        'This checkpoint is in use by another watcher in this process. Stop that watcher first, or give each watcher its own checkpoint.',
      ),
    );
    // Once the first loop ended, the checkpoint is free again: the next goes on from it.
    await iterator.return?.();
    const next = await all(watchEvents(client, { checkpoint }), 3);
    expect(next).toHaveLength(3);
  });

  it('ends at once, sending nothing, when the client was closed before the loop began', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 3 });
    const client = env.client();
    const watcher = watchEvents(client, { checkpoint: memoryCheckpoint() });
    await client.close();
    expect(await all(watcher)).toEqual([]);
    expect(env.sandbox.requests).toHaveLength(0);
  });

  it('ends on client.close() while it waits between passes, and no longer listens to the client once ended', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 0 });
    const client = env.client();
    const watcher = watchEvents(client, { checkpoint: memoryCheckpoint() });
    const done = all(watcher);
    while (env.clock.sleeps.length < 2) await tick();
    await client.close();
    expect(await done).toEqual([]);
    expect(watcher.stats.polls).toBe(2);
  });

  it('takes the lock (standby waits with it), reports its status and outages, and releases it when the loop ends', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 2 });
    const client = env.client();
    const inner = memoryCheckpoint();
    const log: string[] = [];
    let given: LockOptions | undefined;
    let statusDuringWait: string | undefined;
    const checkpoint: Checkpoint = {
      load: () => inner.load(),
      save: (line, options) => inner.save(line, options),
      lock: async (options) => {
        given = options;
        statusDuringWait = watcher.stats.lock;
        for (const status of ['unreachable', 'unreachable', 'held', 'unreachable', 'held'] as LockStatus[])
          options?.onStatus?.(status);
        log.push('locked');
        return async () => void log.push('released');
      },
    };
    const watcher = watchEvents(client, { checkpoint, standby: true });
    expect(watcher.stats.lock).toBe('none');
    const events = await all(watcher, 2);
    expect(events).toHaveLength(2);
    expect(statusDuringWait).toBe('standby');
    expect(given?.wait).toBe(true);
    expect(given?.signal).toBeInstanceOf(AbortSignal);
    // Two outages: a status repeated while unreachable is the same outage.
    expect(watcher.stats).toMatchObject({ lock: 'held', lockOutages: 2 });
    expect(log).toEqual(['locked', 'released']);
    // What a standby checks: a snapshot of this key's checkpoint is one it may go on from.
    const [snapshot] = await inner.load();
    await expect(given?.check?.(snapshot as string)).resolves.toBe(true);
    await expect(
      given?.check?.(snapshot?.replace(/"key":"[^"]*"/, '"key":"0000000000000000"') as string),
    ).rejects.toThrow(/another/);

    // Without standby the lock is taken without waiting; the status is the lock's own.
    const plain = watchEvents(client, { checkpoint });
    await all(plain, 1);
    expect(given?.wait).toBe(false);
    expect(plain.stats.lock).toBe('held');
  });

  it('stopped while standing by: ends without an error, loading nothing; a lock that fails otherwise ends the loop with its error', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    const client = env.client();
    let loads = 0;
    const waiting: Checkpoint = {
      load: async () => {
        loads++;
        return [];
      },
      save: async () => undefined,
      lock: ({ signal } = {}) =>
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true })),
    };
    const standby = watchEvents(client, { checkpoint: waiting, standby: true });
    const done = all(standby);
    await tick();
    expect(standby.stats.lock).toBe('standby');
    standby.stop();
    expect(await done).toEqual([]);
    expect(loads).toBe(0);

    // A lock that resolves only after the stop: the loop ends before loading the checkpoint.
    let release = 0;
    const late: Checkpoint = {
      ...waiting,
      lock: async () => {
        lateWatcher.stop();
        return async () => void release++;
      },
    };
    const lateWatcher = watchEvents(client, { checkpoint: late });
    expect(await all(lateWatcher)).toEqual([]);
    expect(loads).toBe(0);
    expect(release).toBe(1);

    const broken: Checkpoint = { ...waiting, lock: async () => Promise.reject(new Error('the lock store is gone')) };
    await expect(all(watchEvents(client, { checkpoint: broken }))).rejects.toThrow('the lock store is gone');
    expect(env.sandbox.requests).toHaveLength(0);
  });

  it('ends with an error that is not transient (a refused key), and with a clock that fails while not stopped', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 0 });
    env.sandbox.faults.next({ path: /\/summary$/, status: 401 });
    const refused = watchEvents(env.client({ maxRetries: 0 }), { checkpoint: memoryCheckpoint() });
    await expect(all(refused)).rejects.toMatchObject({ status: 401 });
    expect(refused.stats.errors).toBe(0);

    const failing: ClientClock = {
      now: () => env.clock.now(),
      monotonic: () => env.clock.monotonic(),
      sleep: async () => {
        throw new Error('the timer broke');
      },
    };
    const watcher = watchEvents(env.client({ clock: failing }), { checkpoint: memoryCheckpoint() });
    await expect(all(watcher)).rejects.toThrow('the timer broke');
    expect(watcher.stats.polls).toBe(1);
  });

  it('takes its calls from a shared budget when given one, and reports its waits', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 2 });
    let takes = 0;
    const budget = {
      waitedMs: 1_234,
      take: async (signal: AbortSignal) => {
        expect(signal).toBeInstanceOf(AbortSignal);
        takes++;
      },
    };
    const watcher: Watcher = watchEvents(env.client(), withSharedBudget({ checkpoint: memoryCheckpoint() }, budget));
    const before = env.sandbox.requests.length;
    await all(watcher, 4);
    expect(takes).toBe(watcher.stats.calls);
    expect(takes).toBe(env.sandbox.requests.length - before);
    expect(watcher.stats.budgetWaitMs).toBe(1_234);
  });

  it("startFrom 'now': the first sync delivers nothing but saves where it stands; later changes come, and the stats count what is tracked", async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 3 });
    const client = env.client();
    const checkpoint = memoryCheckpoint();
    const watcher = watchEvents(client, { checkpoint, startFrom: 'now' });
    const iterator = watcher[Symbol.asyncIterator]();
    const first = iterator.next();
    while (env.clock.sleeps.length < 1) await tick();
    expect(watcher.stats).toMatchObject({
      events: 0,
      polls: 1,
      reconciliations: 1,
      tracked: { reservations: 6, stores: 2 },
      lastPass: { kind: 'reconciliation', reason: 'first sync' },
    });
    // Saved as one snapshot: a watcher started on it later goes on from here.
    const saved = await checkpoint.load();
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(/^\{/);
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 1, idPrefix: 'late-' });
    const event = await first;
    expect(event.value).toMatchObject({ type: 'reservation.created', partner_location_id: 'late-000001' });
    expect(watcher.stats.events).toBe(1);
    await iterator.return?.();
    expect(watcher.stats.tracked).toEqual({ reservations: 7, stores: 3 });
  });
});
