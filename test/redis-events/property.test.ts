/**
 * Property: three standby watchers in this process on one redisCheckpoint (a short lease), each
 * reaching Redis through its own TCP proxy, so the test can cut one off for good (its process
 * "died": it can no longer renew) or for a while (a pause, or a network split, shorter or longer
 * than the lease). Whatever the kill and pause points, every change arrives, a watcher never
 * delivers again once another has delivered after it, and the fence never goes back.
 *
 * CI-sized: FC_NUM_RUNS=50 for a longer run; a failure prints the seed and the shrunk schedule,
 * and FC_SEED (with FC_PATH) replays it.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { watchEvents, type PartnerEvent } from '../../src/events/index.js';
import { redisCheckpoint } from '../../src/redis/index.js';
import { coverage } from '../events/coverage.js';
import { startSimEnv } from '../events/support.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { HOUR, quiet, redisAvailable, sleep, WATCH as OPTIONS, withLock } from './in-process.js';
import { sampleFence, testRedis } from './replicas.js';

const RUNS = fastCheckRuns(4);
const available = redisAvailable();

const LEASE_MS = 300;

/** A TCP proxy to Redis that can be cut (open connections dropped, new ones refused) and restored. */
async function redisProxy(
  port: number,
): Promise<{ url: string; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((inbound) => {
    if (!open) return void inbound.destroy();
    const outbound = connect(port, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${address.port}`,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * `kill`: the leader cut off from Redis for good; `split`: cut off for `ms`; `freeze`: the leader's
 * loop body blocks the whole process for `ms` (as a SIGSTOP or a long GC pause would: no timer runs,
 * so no renewal), the other watchers with it, after which whoever's timer runs first wins.
 */
type Step = { kind: 'run'; ms: number } | { kind: 'kill' } | { kind: 'split' | 'freeze'; ms: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('run' as const), ms: fc.integer({ min: 50, max: 600 }) }),
  fc.constant({ kind: 'kill' as const }),
  fc.record({
    kind: fc.constantFrom('split' as const, 'freeze' as const),
    ms: fc.integer({ min: 50, max: 3 * LEASE_MS }),
  }),
);

describe.skipIf(!available)('replicas on a redisCheckpoint, property', () => {
  const server = useRedisServer();
  let run = 0;
  const raw = { current: undefined as ReturnType<typeof testRedis> | undefined };
  afterAll(() => raw.current?.disconnect());

  it(
    'random kill, split and freeze points: every change delivered, no interleaving, the fence never goes back',
    async () => {
      raw.current ??= testRedis(server.url);
      const redis = raw.current;
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
          const key = `prop-${process.pid}-${++run}`;
          const env = await startSimEnv('msw', { visitsPerWeek: 20 });
          env.sandbox.populate(env.key, { locations: 8, reservationsPerLocation: 3 });
          const start = env.clock.now();
          const proxies = await Promise.all([0, 1, 2].map(() => redisProxy(server.port)));
          const controllers = proxies.map(() => new AbortController());
          const log: Array<{ watcher: number; event: PartnerEvent; at: number }> = [];
          const acquired: Array<{ watcher: number; at: number }> = [];
          const endings: unknown[] = [undefined, undefined, undefined];
          // Watchers whose loop ended: one that lost its lease to another stops for good (its process
          // would be restarted), so a kill or split must leave another running to take over.
          const ended = new Set<number>();
          // A watcher that held the lease and saw another take it after will end at its next check.
          const superseded = (w: number) => {
            let last = -1;
            acquired.forEach((a, i) => {
              if (a.watcher === w) last = i;
            });
            return last !== -1 && acquired.slice(last + 1).some((a) => a.watcher !== w);
          };
          const fence = sampleFence(redis, key);
          const clients = proxies.map(() => env.client({ logLevel: 'off' }));
          const loops = proxies.map(async (proxy, i) => {
            const inner = redisCheckpoint({ redis: proxy.url, key, leaseMs: LEASE_MS, logger: quiet });
            // The same checkpoint, noting when this watcher got the lease (once Redis's answer is in).
            const checkpoint = withLock(inner, async (options) => {
              const release = await inner.lock!(options);
              acquired.push({ watcher: i, at: performance.now() });
              return release;
            });
            try {
              for await (const event of watchEvents(clients[i]!, {
                checkpoint,
                standby: true,
                signal: controllers[i]!.signal,
                ...OPTIONS,
              })) {
                log.push({ watcher: i, event, at: performance.now() });
                if (freeze > 0) {
                  const until = Date.now() + freeze;
                  freeze = 0;
                  while (Date.now() < until); // blocks every timer of this process, renewals included
                }
              }
            } catch (error) {
              endings[i] = error;
            } finally {
              ended.add(i);
            }
          });
          const dead = new Set<number>();
          let freeze = 0;
          const leader = async () => {
            const holder = await redis.get(`${key}:lease`);
            const found = log.at(-1)?.watcher;
            return holder ? found : undefined;
          };
          try {
            for (const s of steps) {
              if (s.kind === 'run') {
                await sleep(s.ms);
                continue;
              }
              await sleep(50);
              if (s.kind === 'freeze') {
                freeze = s.ms;
                await sleep(s.ms + 50);
                continue;
              }
              const current = await leader();
              if (current === undefined || dead.has(current)) continue;
              const running = [0, 1, 2].filter((w) => !dead.has(w) && !ended.has(w) && !superseded(w));
              if (running.length < 2) continue; // another must be running to take over
              if (s.kind === 'kill') {
                if (dead.size >= 1) continue; // keep two alive: one leads, one stands by
                dead.add(current);
                proxies[current]!.cut();
              } else {
                proxies[current]!.cut();
                await sleep(s.ms);
                proxies[current]!.restore();
              }
            }
            const upTo = env.clock.now();
            // Let the current leader go on past a full reconciliation, so every change up to upTo is found.
            const deadline = Date.now() + 15_000;
            while (env.clock.now() < upTo + OPTIONS.maxLag + 2 * HOUR && Date.now() < deadline) await sleep(20);
            expect(env.clock.now()).toBeGreaterThanOrEqual(upTo + OPTIONS.maxLag + 2 * HOUR);
            for (const c of controllers) c.abort();
            await Promise.all(loops);

            const changes = env.sandbox.inspect.changes(env.key).filter((c) => Date.parse(c.at) > start);
            const report = coverage(
              changes,
              log.map((l) => l.event),
              upTo,
            );
            expect(report.missing).toEqual([]);
            // Once another watcher has delivered, an earlier one never delivers again; and no watcher
            // delivers once another has taken the lease after it.
            const order = log.map((l) => l.watcher).filter((w, i, all) => i === 0 || all[i - 1] !== w);
            expect(new Set(order).size).toBe(order.length);
            for (const { watcher, at } of log) expect(acquired.filter((a) => a.at < at).at(-1)?.watcher).toBe(watcher);
            const fences = await fence.stop();
            expect(fences.every((f, i) => i === 0 || f >= fences[i - 1]!)).toBe(true);
            // A watcher ends with an error only when it lost its lease to another.
            for (const ending of endings)
              if (ending !== undefined) expect(ending).toMatchObject({ code: 'checkpoint_locked' });
          } finally {
            for (const c of controllers) c.abort();
            await fence.stop();
            await Promise.all(clients.map((c) => c.close()));
            await Promise.all(proxies.map((p) => p.close()));
            await env.close();
          }
        }),
        { ...RUNS, endOnFailure: true },
      );
    },
    Math.max(60_000, RUNS.numRuns * 8_000),
  );
});
