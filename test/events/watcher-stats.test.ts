/**
 * The watcher's edges its other tests leave open: the stats before any pass, a signal aborted
 * before the watcher was made, lock outages counted from a first `held`, the status of a lock taken
 * without standby, a fingerprint given as a number, and a shared budget that is not one.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { memoryCheckpoint, watchEvents, type Checkpoint, type LockStatus } from '../../src/events/index.js';
import { withSharedBudget } from '../../src/events/shared-budget.js';
import { useSimEnv } from './support.js';

describe('the watcher at its edges', () => {
  const startSimEnv = useSimEnv();

  it('starts from zeroed stats, and a signal aborted before it was made ends the loop before any request', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 2 });
    const aborted = new AbortController();
    aborted.abort();
    const watcher = watchEvents(env.client(), { checkpoint: memoryCheckpoint(), signal: aborted.signal });
    expect(watcher.stats).toEqual({
      calls: 0,
      events: 0,
      polls: 0,
      reconciliations: 0,
      budgetWaitMs: 0,
      intervalMs: 0,
      errors: 0,
      tracked: { reservations: 0, stores: 0 },
      lastReconciledAt: null,
      lock: 'none',
      lockOutages: 0,
      historyResets: 0,
      lastHistoryReset: null,
      serviceTimeOutliers: 0,
      lastPass: null,
    });
    for await (const _ of watcher) throw new Error('no event expected');
    expect(env.sandbox.requests).toHaveLength(0);
  });

  it('counts an outage only on the way into unreachable; a lock taken without standby is never reported standing by', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 1 });
    const inner = memoryCheckpoint();
    let during: string | undefined;
    const checkpoint: Checkpoint = {
      load: () => inner.load(),
      save: (line, options) => inner.save(line, options),
      lock: async (options) => {
        during = watcher.stats.lock;
        for (const status of ['held', 'held', 'unreachable', 'held'] as LockStatus[]) options?.onStatus?.(status);
        return async () => undefined;
      },
    };
    const watcher = watchEvents(env.client(), { checkpoint });
    for await (const _ of watcher) break;
    expect(during).toBe('none');
    expect(watcher.stats).toMatchObject({ lock: 'held', lockOutages: 1 });
  });

  it('refuses a fingerprint given as a number, and takes no shared budget without take()', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 1 });
    const client = env.client();
    expect(() =>
      watchEvents(client, { checkpoint: memoryCheckpoint(), previousKeys: [1234567890123456 as never] }),
    ).toThrow(ConfigurationError);
    const watcher = watchEvents(client, withSharedBudget({ checkpoint: memoryCheckpoint() }, {} as never));
    for await (const _ of watcher) break;
    expect(watcher.stats.calls).toBeGreaterThan(0);
  });
});
