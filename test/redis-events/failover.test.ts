/**
 * The event stream as replicas: watcher processes on one redisCheckpoint with `standby: true`,
 * against a sandbox on a real port whose bookings and videos change on simulated time, and a real
 * redis-server. The leader is SIGKILLed, paused past its lease, and Redis itself is killed and
 * restarted: every change still arrives at least once under its stable id, two processes never
 * deliver at the same time, and the checkpoint's fence never goes back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverage } from '../events/coverage.js';
import {
  REDIS_SKIP_MESSAGE,
  redisServerAvailable,
  startRedisServer,
  type RedisServer,
} from '../helpers/redis-server.js';
import {
  DAY,
  LEASE_MS,
  WATCH_OPTIONS,
  deliveryIntervals,
  leaderPid,
  overlaps,
  readDeliveries,
  sampleFence,
  spawnReplica,
  startWorld,
  testRedis,
  until,
  type Replica,
} from './replicas.js';

const available = redisServerAvailable();
if (!available) console.warn(REDIS_SKIP_MESSAGE);

/** Stop everything a test started, whatever state it stopped in (the replicas are killed outright). */
async function teardown(started: {
  replicas: Replica[];
  world: { server: { close(): Promise<void> } };
  fence?: { stop(): Promise<number[]> };
  redis: { disconnect(): void };
  redisServer: RedisServer;
}): Promise<void> {
  for (const r of started.replicas) r.child.kill('SIGKILL');
  await started.world.server.close();
  await started.fence?.stop();
  started.redis.disconnect();
  await started.redisServer.stop();
}

const nonDecreasing = (values: number[]) => values.every((v, i) => i === 0 || v >= values[i - 1]!);

describe.skipIf(!available)('the event stream as replicas on a redisCheckpoint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crp-replicas-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('three replicas, the leader SIGKILLed twice: every change delivered, no two processes deliver at once, the fence never goes back', async () => {
    const redisServer = (await startRedisServer()) as RedisServer;
    const redis = testRedis(redisServer.url);
    const world = await startWorld(31, 40);
    const record = join(dir, 'kill.jsonl');
    const end = world.start + 6 * DAY;
    const env = {
      PARTNER_API_BASE_URL: world.server.url,
      PARTNER_API_KEY: world.key,
      REDIS_URL: redisServer.url,
      CHECKPOINT_KEY: 'kill',
      RECORD: record,
      STOP_AT: String(end + WATCH_OPTIONS.maxLag + 3_600_000),
    };
    const replicas = [spawnReplica(env), spawnReplica(env), spawnReplica(env)];
    const fence = sampleFence(redis, 'kill');
    const killed: Replica[] = [];
    const takeovers: number[] = [];
    try {
      for (const at of [world.start + 2 * DAY, world.start + 4 * DAY]) {
        await until(() => world.now() >= at, 40_000, 'simulated time to pass the kill point');
        const pid = await leaderPid(redis, 'kill');
        const leader = replicas.find((r) => r.pid === pid) as Replica;
        expect(leader).toBeDefined();
        const killedAt = Date.now();
        leader.child.kill('SIGKILL');
        await leader.exited;
        killed.push(leader);
        await until(
          async () => (await leaderPid(redis, 'kill')) !== undefined && (await leaderPid(redis, 'kill')) !== pid,
          10_000,
          'a standby to take over',
        );
        takeovers.push(Date.now() - killedAt);
      }
      const last = replicas.find((r) => !killed.includes(r)) as Replica;
      expect(await last.exited).toBe(0);
    } finally {
      await teardown({ replicas, world, fence, redis, redisServer });
    }
    const fences = await fence.stop();

    const deliveries = readDeliveries(record);
    const changes = world.sandbox.inspect.changes(world.key).filter((c) => Date.parse(c.at) > world.start);
    const report = coverage(changes, deliveries, end);
    const spans = deliveryIntervals(deliveries);
    console.log(
      `replicas: ${report.changes} changes, ${deliveries.length} deliveries by ${spans.map((s) => `${s.pid}×${s.count}`).join(', ')}; ` +
        `takeover after SIGKILL ${takeovers.join(' and ')} ms; ${report.duplicates} duplicates; fences ${[...new Set(fences)].join('→')}`,
    );
    expect(report.changes).toBeGreaterThan(200);
    expect(report.missing).toEqual([]);
    expect(overlaps(deliveries)).toEqual([]);
    expect(spans).toHaveLength(3);
    expect(nonDecreasing(fences)).toBe(true);
    expect(fences.at(-1)).toBe(3);
    // A kill repeats at most the event in flight.
    expect(report.duplicates).toBeLessThanOrEqual(2);
    for (const ms of takeovers) expect(ms).toBeLessThan(LEASE_MS + 1_000);
  }, 60_000);

  it('a leader paused past its lease (SIGSTOP) and resumed delivers nothing more and stops with checkpoint_locked', async () => {
    const redisServer = (await startRedisServer()) as RedisServer;
    const redis = testRedis(redisServer.url);
    const world = await startWorld(32, 20);
    const record = join(dir, 'pause.jsonl');
    const end = world.start + 3 * DAY;
    const env = {
      PARTNER_API_BASE_URL: world.server.url,
      PARTNER_API_KEY: world.key,
      REDIS_URL: redisServer.url,
      CHECKPOINT_KEY: 'pause',
      RECORD: record,
      STOP_AT: String(end + WATCH_OPTIONS.maxLag + 3_600_000),
    };
    const replicas = [spawnReplica(env), spawnReplica(env)];
    const fence = sampleFence(redis, 'pause');
    try {
      await until(() => world.now() >= world.start + DAY, 30_000, 'a simulated day');
      const pid = await leaderPid(redis, 'pause');
      const paused = replicas.find((r) => r.pid === pid) as Replica;
      const other = replicas.find((r) => r !== paused) as Replica;
      paused.child.kill('SIGSTOP');
      await until(async () => (await leaderPid(redis, 'pause')) === other.pid, 10_000, 'the standby to take over');
      await until(() => readDeliveries(record).some((d) => d.pid === other.pid), 10_000, 'the new leader to deliver');
      paused.child.kill('SIGCONT');
      expect(await paused.exited).toBe(3);
      expect(paused.output()).toMatch(/"error":"checkpoint_locked"/);
      expect(await other.exited).toBe(0);
    } finally {
      await teardown({ replicas, world, fence, redis, redisServer });
    }
    const fences = await fence.stop();
    const deliveries = readDeliveries(record);
    const changes = world.sandbox.inspect.changes(world.key).filter((c) => Date.parse(c.at) > world.start);
    expect(coverage(changes, deliveries, end).missing).toEqual([]);
    expect(overlaps(deliveries)).toEqual([]);
    expect(deliveryIntervals(deliveries)).toHaveLength(2);
    expect(nonDecreasing(fences)).toBe(true);
  }, 60_000);

  it('Redis killed for 5 s mid-run and restarted on the same port: nothing lost, a replica stopped during the outage exits at once, the rest on SIGTERM', async () => {
    const data = mkdtempSync(join(dir, 'redis-'));
    let redisServer = (await startRedisServer(undefined, { dir: data })) as RedisServer;
    const world = await startWorld(33, 20);
    const record = join(dir, 'outage.jsonl');
    const end = world.start + 3 * DAY;
    const env = {
      PARTNER_API_BASE_URL: world.server.url,
      PARTNER_API_KEY: world.key,
      REDIS_URL: redisServer.url,
      CHECKPOINT_KEY: 'outage',
      RECORD: record,
    };
    const replicas = [spawnReplica(env), spawnReplica(env)];
    const redis = testRedis(redisServer.url);
    let leader = replicas[0] as Replica;
    try {
      await until(async () => (await leaderPid(redis, 'outage')) !== undefined, 10_000, 'a replica to lead');
      const pid = await leaderPid(redis, 'outage');
      leader = replicas.find((r) => r.pid === pid) as Replica;
      const standby = replicas.find((r) => r !== leader) as Replica;
      await until(() => world.now() >= world.start + DAY, 30_000, 'a simulated day');
      const port = redisServer.port;
      await redisServer.kill();
      const before = readDeliveries(record).length;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      // Down: the leader delivers nothing (at most what was in flight), and a stop ends a standby at once.
      const stopping = Date.now();
      standby.child.kill('SIGTERM');
      expect(await standby.exited).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(3_000);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(readDeliveries(record).length).toBeLessThanOrEqual(before + 1);
      redisServer = (await startRedisServer(port, { dir: data })) as RedisServer;
      await until(
        () => world.now() >= end + WATCH_OPTIONS.maxLag + 3_600_000,
        30_000,
        'the leader to go on after the outage',
      );
      const terminating = Date.now();
      leader.child.kill('SIGTERM');
      expect(await leader.exited).toBe(0);
      expect(Date.now() - terminating).toBeLessThan(3_000);
      const stats = JSON.parse(leader.output().trim().split('\n').at(-1) as string) as {
        stats: { lockOutages: number };
      };
      expect(stats.stats.lockOutages).toBeGreaterThanOrEqual(1);
    } finally {
      await teardown({ replicas, world, redis, redisServer });
    }
    const deliveries = readDeliveries(record);
    const changes = world.sandbox.inspect.changes(world.key).filter((c) => Date.parse(c.at) > world.start);
    const report = coverage(changes, deliveries, end);
    expect(report.changes).toBeGreaterThan(20);
    expect(report.missing).toEqual([]);
    expect(new Set(deliveries.map((d) => d.pid))).toEqual(new Set([leader.pid]));
  }, 60_000);
});
