/**
 * Property: three standby watchers in this process on one redisCheckpoint (a short lease), while
 * Redis lies at random points: FLUSHALL, the loss of `<key>:meta` or `<key>:lease` alone, and
 * pauses of the whole server (DEBUG SLEEP, shorter or longer than the lease). Whatever the faults,
 * at most one watcher delivers at any time (once another has delivered, an earlier one never
 * delivers again), every change arrives (a flushed checkpoint starts over: duplicates, nothing
 * lost), and a watcher ends only with checkpoint_locked.
 *
 * CI-sized: FC_NUM_RUNS=30 for a longer run; a failure prints the seed and the shrunk schedule,
 * and FC_SEED (with FC_PATH) replays it.
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { watchEvents, type PartnerEvent } from '../../src/events/index.js';
import { redisCheckpoint } from '../../src/redis/index.js';
import { coverage } from '../events/coverage.js';
import { startSimEnv } from '../events/support.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { HOUR, quiet, redisAvailable, sleep, WATCH as OPTIONS, withLock } from './in-process.js';

const RUNS = fastCheckRuns(4);
const available = redisAvailable();

const LEASE_MS = 300;

type Fault =
  | { kind: 'run'; ms: number }
  | { kind: 'flush' }
  | { kind: 'lose'; what: 'meta' | 'lease' }
  | { kind: 'pause'; ms: number };
const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({ kind: fc.constant('run' as const), ms: fc.integer({ min: 50, max: 600 }) }),
  fc.constant({ kind: 'flush' as const }),
  fc.record({ kind: fc.constant('lose' as const), what: fc.constantFrom('meta' as const, 'lease' as const) }),
  fc.record({ kind: fc.constant('pause' as const), ms: fc.integer({ min: 50, max: 3 * LEASE_MS }) }),
);

describe.skipIf(!available)('replicas on a redisCheckpoint while Redis lies, property', () => {
  const server = useRedisServer({ debug: true });
  let run = 0;
  const connections: Redis[] = [];
  afterAll(() => {
    for (const c of connections) c.disconnect();
  });

  const scenario = async (faults: Fault[]) => {
    if (connections.length === 0) connections.push(new Redis(server.url), new Redis(server.url));
    const [redis, sleeper] = connections as [Redis, Redis];
    const key = `faults-${process.pid}-${++run}`;
    const env = await startSimEnv('msw', { visitsPerWeek: 20 });
    env.sandbox.populate(env.key, { locations: 8, reservationsPerLocation: 3 });
    const start = env.clock.now();
    const controllers = [0, 1, 2].map(() => new AbortController());
    const log: Array<{ watcher: number; event: PartnerEvent }> = [];
    const endings: unknown[] = [undefined, undefined, undefined];
    const ended = new Set<number>();
    const acquired: number[] = [];
    const clients = controllers.map(() => env.client({ logLevel: 'off' }));
    const loops = controllers.map(async (controller, i) => {
      const inner = redisCheckpoint({ redis: server.url, key, leaseMs: LEASE_MS, logger: quiet });
      const checkpoint = withLock(inner, async (options) => {
        const release = await inner.lock!(options);
        acquired.push(i);
        return release;
      });
      try {
        for await (const event of watchEvents(clients[i]!, {
          checkpoint,
          standby: true,
          signal: controller.signal,
          ...OPTIONS,
        }))
          log.push({ watcher: i, event });
      } catch (error) {
        endings[i] = error;
      } finally {
        ended.add(i);
      }
    });
    // A fault may end the holder (its lease record is gone): another must be left to take over.
    // A watcher that held the lease and saw another take it after ends at its next check.
    const superseded = (w: number) =>
      acquired.includes(w) && acquired.slice(acquired.lastIndexOf(w) + 1).some((x) => x !== w);
    const running = () => [0, 1, 2].filter((w) => !ended.has(w) && !superseded(w));
    try {
      for (const f of faults) {
        if (f.kind === 'run') {
          await sleep(f.ms);
          continue;
        }
        await sleep(50);
        if (running().length < 2) continue;
        if (f.kind === 'flush') await redis.flushall();
        else if (f.kind === 'lose') await redis.del(`${key}:${f.what}`);
        else await sleeper.call('DEBUG', 'SLEEP', (f.ms / 1000).toFixed(3));
      }
      const upTo = env.clock.now();
      const deadline = Date.now() + 20_000;
      while (env.clock.now() < upTo + OPTIONS.maxLag + 2 * HOUR && Date.now() < deadline) await sleep(20);
      expect(env.clock.now()).toBeGreaterThanOrEqual(upTo + OPTIONS.maxLag + 2 * HOUR);
      for (const c of controllers) c.abort();
      await Promise.all(loops);

      const changes = env.sandbox.inspect.changes(env.key).filter((c) => Date.parse(c.at) > start);
      expect(
        coverage(
          changes,
          log.map((l) => l.event),
          upTo,
        ).missing,
      ).toEqual([]);
      const order = log.map((l) => l.watcher).filter((w, i, all) => i === 0 || all[i - 1] !== w);
      expect(new Set(order).size).toBe(order.length);
      for (const ending of endings)
        if (ending !== undefined) expect(ending).toMatchObject({ code: 'checkpoint_locked' });
    } finally {
      for (const c of controllers) c.abort();
      await Promise.all(loops);
      await Promise.all(clients.map((c) => c.close()));
      await env.close();
    }
  };

  it(
    'random FLUSHALL, key loss and server pauses: one deliverer at a time, every change delivered',
    async () => {
      await fc.assert(fc.asyncProperty(fc.array(fault, { minLength: 1, maxLength: 5 }), scenario), {
        ...RUNS,
        endOnFailure: true,
      });
    },
    Math.max(90_000, RUNS.numRuns * 15_000),
  );

  // Shrunk counterexamples, kept.
  it('FLUSHALL, then Redis paused 791 ms', () => scenario([{ kind: 'flush' }, { kind: 'pause', ms: 791 }]), 30_000);
});
