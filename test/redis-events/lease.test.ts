/**
 * redisCheckpoint() against a real redis-server: the lease (refused, waited for, expiring after
 * its holder stops renewing, released), fencing (a stale holder's save is refused atomically), and
 * a Redis that does not answer (no hang, reported, resumed).
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CheckpointLockedError, ConfigurationError } from '../../src/index.js';
import type { Checkpoint, LockStatus } from '../../src/events/index.js';
import { redisCheckpoint } from '../../src/redis/index.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { quiet, redisAvailable, sleep } from './in-process.js';

const available = redisAvailable();

let n = 0;
const newKey = () => `crp-test-${process.pid}-${++n}`;

describe('redisCheckpoint() options', () => {
  it('refuses a wrong connection, key or lease before connecting', () => {
    expect(() => redisCheckpoint({ redis: 'http://x', key: 'k' })).toThrow(ConfigurationError);
    expect(() => redisCheckpoint({ redis: 'redis://x', key: '' })).toThrow(/needs a key/);
    expect(() => redisCheckpoint({ redis: 'redis://x', key: 'k', leaseMs: 10 })).toThrow(/leaseMs must be/);
    expect(() => redisCheckpoint({ redis: 'redis://x', key: 'k', lease: 1 } as never)).toThrow(/Unknown option lease/);
  });

  it('refuses load and save before the lock is taken (a save must carry the lease)', async () => {
    const checkpoint = redisCheckpoint({ redis: 'redis://127.0.0.1:1', key: 'k' });
    await expect(checkpoint.load()).rejects.toThrow(/while its lock is held/);
    await expect(checkpoint.save('x')).rejects.toThrow(ConfigurationError);
  });
});

describe.skipIf(!available)('redisCheckpoint() on a real Redis', () => {
  const server = useRedisServer();
  const releases: Array<() => Promise<void>> = [];
  let raw: Redis | undefined;
  const redis = () => (raw ??= new Redis(server.url));
  afterEach(async () => {
    await Promise.all(releases.splice(0).map((release) => release()));
  });
  afterAll(() => raw?.disconnect());

  const make = (key: string, leaseMs = 600): Checkpoint =>
    redisCheckpoint({ redis: server.url, key, leaseMs, logger: quiet });
  const take = async (checkpoint: Checkpoint, options = {}) => {
    const release = await checkpoint.lock!(options);
    releases.push(release);
    return release;
  };

  it('keeps records in order, replace drops the earlier ones, and a second holder is refused while the first renews', async () => {
    const key = newKey();
    const a = make(key);
    const release = await take(a);
    await a.save('one');
    await a.save('two');
    expect(await a.load()).toEqual(['one', 'two']);
    await a.save('snap', { replace: true });
    await a.save('three');
    expect(await a.load()).toEqual(['snap', 'three']);
    // Past several leases: the holder's renewals keep it.
    await sleep(1_500);
    const b = make(key);
    const refused = await b.lock!().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CheckpointLockedError);
    expect((refused as Error).message).toMatch(new RegExp(`pid ${process.pid}`));
    await release();
    await take(b);
    expect(await b.load()).toEqual(['snap', 'three']);
    expect(await redis().hget(`${key}:meta`, 'fence')).toBe('2');
  });

  it('a standby waits for the lease and takes it when the holder releases it, or within a lease of the holder dying', async () => {
    const key = newKey();
    const a = make(key);
    const releaseA = await take(a);
    const b = make(key);
    let bHeld = false;
    const waiting = take(b, { wait: true }).then(() => (bHeld = true));
    await sleep(300);
    expect(bHeld).toBe(false);
    const released = Date.now();
    await releaseA();
    await waiting;
    // One poll interval (leaseMs / 10, at least 20 ms) after the release.
    expect(Date.now() - released).toBeLessThan(300);

    // A holder that dies (here: its lease written by hand and never renewed) frees it after leaseMs.
    const key2 = newKey();
    await redis().set(`${key2}:lease`, 'gone pid 1', 'PX', 500);
    await redis().hset(`${key2}:meta`, 'fence', 7);
    const c = make(key2);
    const started = Date.now();
    await take(c, { wait: true });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(500 + 60 + 200);
    expect(await redis().hget(`${key2}:meta`, 'fence')).toBe('8');
  });

  it('refuses, atomically, every save of a holder whose lease was taken over, and it learns it lost the lease', async () => {
    const key = newKey();
    const statuses: LockStatus[] = [];
    const a = make(key, 300);
    await take(a, { onStatus: (s: LockStatus) => statuses.push(s) });
    await a.save('a1');
    // What a pause past the lease looks like to Redis: the lease gone, another watcher takes it.
    await redis().del(`${key}:lease`);
    const b = make(key, 300);
    await take(b);
    await b.save('b1', { replace: true });
    await expect(a.save('a2')).rejects.toBeInstanceOf(CheckpointLockedError);
    await expect(a.save('a3', { replace: true })).rejects.toThrow(/lost its lease/);
    expect(await b.load()).toEqual(['b1']);
    await sleep(400);
    await expect(a.confirm!(new AbortController().signal)).rejects.toBeInstanceOf(CheckpointLockedError);
    expect(statuses).toEqual(['lost']);
    await b.save('b2');
    expect(await b.load()).toEqual(['b1', 'b2']);
  });

  it('a save retried after its answer was lost is applied once', async () => {
    const key = newKey();
    const a = make(key);
    await take(a);
    await a.save('first'); // the holder's save number 1
    // The script, driven directly: save number 2 sent twice (a retry) appends once; a stale fence never.
    const [fence, holder] = (await redis().hmget(`${key}:meta`, 'fence', 'holder')) as [string, string];
    const { SAVE } = await import('../../src/redis/lease-scripts.js');
    for (let i = 0; i < 2; i++)
      expect(await redis().eval(SAVE, 2, `${key}:meta`, `${key}:records`, fence, holder, 2, '0', 'once')).toBe(1);
    expect(
      await redis().eval(SAVE, 2, `${key}:meta`, `${key}:records`, String(Number(fence) - 1), holder, 3, '0', 'stale'),
    ).toBe(0);
    // The same fence under another holder id: the fence an earlier holder carries after Redis lost the record.
    expect(await redis().eval(SAVE, 2, `${key}:meta`, `${key}:records`, fence, 'someone else', 3, '0', 'foreign')).toBe(
      0,
    );
    expect(await a.load()).toEqual(['first', 'once']);
  });

  it('an acquisition retried after its answer was lost gets the same fence, not a wait for its own lease', async () => {
    const key = newKey();
    const { ACQUIRE } = await import('../../src/redis/lease-scripts.js');
    const acquire = (id: string) => redis().eval(ACQUIRE, 2, `${key}:lease`, `${key}:meta`, id, 600);
    expect(await acquire('me pid 1')).toEqual([1, '1', 0]);
    expect(await acquire('me pid 1')).toEqual([1, '1', 0]);
    expect(((await acquire('other pid 2')) as unknown[]).slice(0, 2)).toEqual([0, 'me pid 1']);
    expect(await redis().hget(`${key}:meta`, 'fence')).toBe('1');
  });

  it('does not hang when Redis is unreachable: reports it, and a stop ends the wait at once', async () => {
    const warnings: string[] = [];
    const checkpoint = redisCheckpoint({
      redis: 'redis://127.0.0.1:1',
      key: newKey(),
      leaseMs: 600,
      logger: { warn: (m) => warnings.push(m) },
    });
    const controller = new AbortController();
    const statuses: LockStatus[] = [];
    const locking = checkpoint.lock!({ signal: controller.signal, onStatus: (s) => statuses.push(s) });
    await sleep(500);
    const stopped = Date.now();
    controller.abort();
    await expect(locking).rejects.toThrow(/aborted/i);
    expect(Date.now() - stopped).toBeLessThan(100);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Redis does not answer/);
    expect(statuses).toEqual(['unreachable']);
  });
});
