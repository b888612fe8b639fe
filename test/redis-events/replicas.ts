/**
 * Replicas of the event stream as child processes (fixtures/replica.ts) around one sandbox on a
 * real port and one redis-server: start them, find the leader, read what each delivered, sample
 * the checkpoint's fence.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { createSandbox } from '../../src/testing/index.js';
import type { DeliveredEvent } from '../events/coverage.js';

export const DAY = 86_400_000;
export const LEASE_MS = 1_000;
/** Longer waits than the defaults keep a simulated week to seconds of real time. */
export const WATCH_OPTIONS = { minInterval: 3_600_000, maxInterval: 4 * 3_600_000, maxLag: 24 * 3_600_000 };

export interface Delivery extends DeliveredEvent {
  pid: number;
  at: number;
}

export interface Replica {
  child: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
  /** What it printed on stdout (its stats, or the code of the error that ended it). */
  output(): string;
}

export async function startWorld(seed: number, stores: number) {
  const sandbox = createSandbox({ seed, rateLimitClock: 'simulated' });
  const key = sandbox.issueKey();
  sandbox.populate(key, { locations: stores, reservationsPerLocation: 3 });
  const server = await sandbox.listen(0);
  return { sandbox, key, server, start: sandbox.clock.now().getTime(), now: () => sandbox.clock.now().getTime() };
}

export function spawnReplica(env: Record<string, string>): Replica {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/redis-events/fixtures/replica.ts'], {
    env: { ...process.env, LEASE_MS: String(LEASE_MS), WATCH_OPTIONS: JSON.stringify(WATCH_OPTIONS), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, pid: child.pid as number, exited, output: () => out };
}

export function readDeliveries(record: string): Delivery[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Delivery];
      } catch {
        return []; // cut short by a kill while being written: that loop body never ended
      }
    });
}

/** The pid in the lease's holder id (`<random> pid <pid>`), or undefined while nobody holds it. */
/** A connection for the test's own look at Redis, quiet while Redis is down. */
export function testRedis(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  return redis;
}

export async function leaderPid(redis: Redis, key: string): Promise<number | undefined> {
  const holder = await redis.get(`${key}:lease`);
  const pid = holder ? Number(/pid (\d+)/.exec(holder)?.[1]) : Number.NaN;
  return Number.isFinite(pid) ? pid : undefined;
}

/** Each process's first and last delivery (real time), in order of the first: overlaps are failures. */
export function deliveryIntervals(
  deliveries: Delivery[],
): Array<{ pid: number; first: number; last: number; count: number }> {
  const byPid = new Map<number, { pid: number; first: number; last: number; count: number }>();
  for (const d of deliveries) {
    const span = byPid.get(d.pid) ?? { pid: d.pid, first: d.at, last: d.at, count: 0 };
    span.first = Math.min(span.first, d.at);
    span.last = Math.max(span.last, d.at);
    span.count++;
    byPid.set(d.pid, span);
  }
  return [...byPid.values()].sort((a, b) => a.first - b.first);
}

export function overlaps(deliveries: Delivery[]): string[] {
  const spans = deliveryIntervals(deliveries);
  const found: string[] = [];
  for (let i = 1; i < spans.length; i++) {
    const before = spans[i - 1]!;
    const after = spans[i]!;
    if (after.first <= before.last)
      found.push(
        `pid ${after.pid} delivered from ${after.first}, while pid ${before.pid} delivered until ${before.last}`,
      );
  }
  return found;
}

/** Reads the checkpoint's fence every 20 ms; `stop()` gives every reading (strings as Redis returns them). */
export function sampleFence(redis: Redis, key: string): { stop(): Promise<number[]> } {
  const seen: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const fence = await redis.hget(`${key}:meta`, 'fence').catch(() => null);
      if (fence !== null) seen.push(Number(fence));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seen;
    },
  };
}

export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
